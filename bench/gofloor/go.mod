module omnibus/bench/gofloor

go 1.26.0

module omnibus/bench/gofloor

go 1.26.0

toolchain go1.26.10

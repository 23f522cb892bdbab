module omnibus/shared

go 1.26.0

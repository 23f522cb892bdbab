module omnibus/shared

go 1.26.0

toolchain go1.26.10

module omnibus/deploy/stack

go 1.26.0

toolchain go1.26.10

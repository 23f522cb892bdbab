module omnibus/deploy/stack

go 1.26.0

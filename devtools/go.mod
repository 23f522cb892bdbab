module omnibus/devtools

go 1.26.0

toolchain go1.26.10

require github.com/oauth2-proxy/mockoidc v0.0.0-20240214162133-caebfff84d25

require (
	github.com/go-jose/go-jose/v3 v3.0.5 // indirect
	github.com/golang-jwt/jwt/v5 v5.3.1 // indirect
	golang.org/x/crypto v0.58.0 // indirect
)

package main

import (
	_ "github.com/andybalholm/brotli"
	_ "github.com/coreos/go-oidc/v3/oidc"
	_ "github.com/emersion/go-smtp"
	_ "github.com/glebarez/sqlite"
	_ "github.com/google/uuid"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/klauspost/compress/gzip"
	_ "github.com/labstack/echo/v4"
	_ "github.com/oauth2-proxy/mockoidc"
	_ "golang.org/x/crypto/argon2"
	_ "golang.org/x/oauth2"
	_ "golang.org/x/sync/singleflight"
	_ "golang.org/x/time/rate"
	_ "gorm.io/driver/postgres"
	_ "gorm.io/gorm"
)

func main() {}

// Package devtools holds the development-only programs (a local OpenID
// provider, the login soak) in a module of their own, so the edge's module
// requires none of their dependencies and the edge binary links none of them.
package devtools

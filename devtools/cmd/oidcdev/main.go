// Command oidcdev runs a local OpenID Connect provider (github.com/oauth2-proxy/mockoidc)
// that stands in for Google: for trying Google sign-in on a development
// machine and for the browser tests (ssr/e2e/auth.spec.ts). Point the edge
// at it with
//
//	GOOGLE_ISSUER_URL=http://127.0.0.1:8099/oidc GOOGLE_CLIENT_ID=dev-client GOOGLE_CLIENT_SECRET=dev-secret
//
// Every sign-in is the default user (jane.doe@example.com, e-mail verified).
// Never expose it: it signs in anyone who asks.
package main

import (
	"flag"
	"log"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/oauth2-proxy/mockoidc"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8099", "listen address (loopback)")
	clientID := flag.String("client-id", "dev-client", "OAuth client id")
	secret := flag.String("client-secret", "dev-secret", "OAuth client secret")
	flag.Parse()

	m, err := mockoidc.NewServer(nil)
	if err != nil {
		log.Fatal(err)
	}
	m.ClientID, m.ClientSecret = *clientID, *secret
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	if err := m.Start(ln, nil); err != nil {
		log.Fatal(err)
	}
	log.Printf("oidcdev: issuer %s, client id %q", m.Issuer(), m.ClientID)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	m.Shutdown()
}

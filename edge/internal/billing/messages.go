package billing

import (
	"encoding/json"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/exchange"
	"omnibus/shared"
)

// Message codes: the keys of messages in shared/content/journey.json.
const (
	codeMalformed      = "malformed"
	codeSignIn         = "signInRequired"
	codeUnknownPlan    = "unknownPlan"
	codePlanOnRequest  = "planOnRequest"
	codeAlreadyActive  = "alreadyActive"
	codeBadQuantity    = "badQuantity"
	codeNotFound       = "notFound"
	codeAlreadyPaid    = "alreadyPaid"
	codePaymentsOff    = "paymentsOff"
	codeProviderFailed = "providerFailed"
	codeBadSignature   = "badSignature"
	codeUnavailable    = "unavailable"
	codeCrossSite      = "crossSite"
	codeTooLarge       = "tooLarge"
	codeUnsupported    = "unsupportedType"
)

var messages = func() map[string]string {
	var c struct {
		Messages map[string]string `json:"messages"`
	}
	if err := json.Unmarshal(shared.JourneyJSON, &c); err != nil {
		panic("billing: shared/content/journey.json: " + err.Error())
	}
	for _, k := range []string{codeMalformed, codeSignIn, codeUnknownPlan, codePlanOnRequest, codeAlreadyActive, codeBadQuantity,
		codeNotFound, codeAlreadyPaid, codePaymentsOff, codeProviderFailed, codeBadSignature, codeUnavailable,
		codeCrossSite, codeTooLarge, codeUnsupported} {
		if c.Messages[k] == "" {
			panic("billing: shared/content/journey.json has no message " + k)
		}
	}
	return c.Messages
}()

// Message is the words for a code.
func Message(code string) string { return messages[code] }

// vocabulary is journey.json's messages as the shared decoder and answers
// use them (internal/exchange).
var vocabulary = &exchange.Vocabulary{
	CrossSite: codeCrossSite, UnsupportedType: codeUnsupported, TooLarge: codeTooLarge, Malformed: codeMalformed,
	Words: Message,
}

// refuse answers JSON {"errorDetail"} with status, or for a form post (a
// page without JavaScript) 303 to page?error=code.
func refuse(c echo.Context, page string, status int, code string) error {
	return vocabulary.Refuse(c, &exchange.Refusal{Status: status, Code: code}, exchange.Form{Back: page})
}

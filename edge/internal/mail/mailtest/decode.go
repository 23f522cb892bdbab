package mailtest

import (
	"bytes"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"strings"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func decoder(m *mail.Message) io.Reader {
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		return quotedprintable.NewReader(m.Body)
	}
	return m.Body
}

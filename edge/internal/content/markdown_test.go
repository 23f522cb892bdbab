package content_test

import (
	"regexp"
	"strings"
	"testing"

	"omnibus/edge/internal/content"
)

func TestHeadingIDsAreTheRenderersOld(t *testing.T) {
	for text, want := range map[string]string{
		"2. Plans, fees and taxes": "plans-fees-and-taxes",
		"Your *rights*":            "your-rights",
		"`GSTIN` & HSN codes":      "gstin-hsn-codes",
		"What we collect":          "what-we-collect",
	} {
		if got := content.HeadingID(text); got != want {
			t.Errorf("HeadingID(%q) = %q, want %q", text, got, want)
		}
	}
	html, err := content.Render("## 2. Plans, fees and taxes\n\ntext\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html, `<h2 id="plans-fees-and-taxes">2. Plans, fees and taxes</h2>`) {
		t.Errorf("the heading has no linkable id: %s", html)
	}
}

func TestWideTablesScrollSideways(t *testing.T) {
	html, err := content.Render("| a | b |\n|---|---|\n| 1 | 2 |\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(html, `<div class="table-scroll" tabindex="0"><table>`) || !strings.Contains(html, "</table></div>") {
		t.Errorf("the table is not wrapped to scroll: %s", html)
	}
}

// The OWASP XSS filter evasion cheat sheet's vectors (a representative row
// of each family), written as Markdown an editor could type. None may leave
// a script, an event handler or a javascript:/vbscript:/data: URL in the
// stored HTML.
var xssCases = []string{
	`<SCRIPT SRC=https://cdn.jsdelivr.net/gh/Moksh45/host-xss.rocks/index.js></SCRIPT>`,
	`javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/"/+/onmouseover=1/+/[*/[]/+alert(1)//'>`,
	`<IMG SRC="javascript:alert('XSS');">`,
	`<IMG SRC=javascript:alert('XSS')>`,
	`<IMG SRC=JaVaScRiPt:alert('XSS')>`,
	"<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
	`<a onmouseover="alert(document.cookie)">xxs link</a>`,
	`<a onmouseover=alert(document.cookie)>xxs link</a>`,
	`<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\>`,
	`<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>`,
	`<IMG SRC=# onmouseover="alert('xxs')">`,
	`<IMG SRC= onmouseover="alert('xxs')">`,
	`<IMG onmouseover="alert('xxs')">`,
	`<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>`,
	`<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">`,
	`<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>`,
	`<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>`,
	`<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`,
	"<IMG SRC=\"jav\tascript:alert('XSS');\">",
	`<IMG SRC="jav&#x09;ascript:alert('XSS');">`,
	`<IMG SRC="jav&#x0A;ascript:alert('XSS');">`,
	`<IMG SRC="jav&#x0D;ascript:alert('XSS');">`,
	`<IMG SRC=" &#14;  javascript:alert('XSS');">`,
	`<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>`,
	"<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert(\"XSS\")>",
	`<SCRIPT/SRC="http://xss.rocks/xss.js"></SCRIPT>`,
	`<<SCRIPT>alert("XSS");//\<</SCRIPT>`,
	`<SCRIPT SRC=http://xss.rocks/xss.js?< B >`,
	`<SCRIPT SRC=//xss.rocks/.j>`,
	`<IMG SRC="` + "`" + `javascript:alert('XSS')"`,
	`<iframe src=http://xss.rocks/scriptlet.html <`,
	`</TITLE><SCRIPT>alert("XSS");</SCRIPT>`,
	`<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">`,
	`<BODY BACKGROUND="javascript:alert('XSS')">`,
	`<IMG DYNSRC="javascript:alert('XSS')">`,
	`<IMG LOWSRC="javascript:alert('XSS')">`,
	`<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>`,
	`<IMG SRC='vbscript:msgbox("XSS")'>`,
	`<svg/onload=alert('XSS')>`,
	`<BODY ONLOAD=alert('XSS')>`,
	`<BGSOUND SRC="javascript:alert('XSS');">`,
	`<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`,
	`<STYLE>@import'http://xss.rocks/xss.css';</STYLE>`,
	`<META HTTP-EQUIV="Link" Content="<http://xss.rocks/xss.css>; REL=stylesheet">`,
	`<STYLE>BODY{-moz-binding:url("http://xss.rocks/xssmoz.xml#xss")}</STYLE>`,
	`<IMG STYLE="xss:expr/*XSS*/ession(alert('XSS'))">`,
	`<STYLE TYPE="text/javascript">alert('XSS');</STYLE>`,
	`<STYLE>.XSS{background-image:url("javascript:alert('XSS')");}</STYLE><A CLASS=XSS></A>`,
	`<STYLE type="text/css">BODY{background:url("javascript:alert('XSS')")}</STYLE>`,
	`<XSS STYLE="behavior: url(xss.htc);">`,
	`<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">`,
	`<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">`,
	`<IFRAME SRC="javascript:alert('XSS');"></IFRAME>`,
	`<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>`,
	`<FRAMESET><FRAME SRC="javascript:alert('XSS');"></FRAMESET>`,
	`<TABLE BACKGROUND="javascript:alert('XSS')">`,
	`<TABLE><TD BACKGROUND="javascript:alert('XSS')">`,
	`<DIV STYLE="background-image: url(javascript:alert('XSS'))">`,
	`<DIV STYLE="background-image:\0075\0072\006C\0028'\006a\0061\0076\0061\0073\0063\0072\0069\0070\0074\003a\0061\006c\0065\0072\0074\0028.1027\0058.1053\0053\0027\0029'\0029">`,
	`<DIV STYLE="width: expression(alert('XSS'));">`,
	`<BASE HREF="javascript:alert('XSS');//">`,
	`<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>`,
	`<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>`,
	`<SCRIPT a=">" SRC="httx://xss.rocks/xss.js"></SCRIPT>`,
	`<SCRIPT =">" SRC="httx://xss.rocks/xss.js"></SCRIPT>`,
	`<SCRIPT "a='>'" SRC="httx://xss.rocks/xss.js"></SCRIPT>`,
	"<SCRIPT a=`>` SRC=\"httx://xss.rocks/xss.js\"></SCRIPT>",
	`<SCRIPT>document.write("<SCRI");</SCRIPT>PT SRC="httx://xss.rocks/xss.js"></SCRIPT>`,
	`<A HREF="javascript:document.location='http://www.google.com/'">XSS</A>`,
	`<a href="jav&#x09;ascript:alert(1)">x</a>`,
	`<a href="&#1;javascript:alert(1)">x</a>`,
	`<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>`,
	`<form action="javascript:alert(1)"><button>x</button></form>`,
	`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
	`<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
	`<details open ontoggle=alert(1)>`,
	// Markdown's own ways to make a link or an image.
	`[click](javascript:alert(1))`,
	`[click](JaVaScRiPt:alert(1))`,
	`[click](javascript&#58;alert(1))`,
	`![x](javascript:alert(1))`,
	`[click](vbscript:msgbox(1))`,
	`[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
	"[a]: javascript:alert(1)\n\n[click][a]",
	`<javascript:alert(1)>`,
	"```html\n<script>alert(1)</script>\n```\n\n<script>alert(2)</script>",
}

var (
	scriptTag    = regexp.MustCompile(`(?i)<\s*/?\s*(script|iframe|object|embed|style|link|meta|base|form|frame|frameset|svg|math|body|bgsound)\b`)
	eventHandler = regexp.MustCompile(`(?i)<[^>]*\son[a-z]+\s*=`)
	badURL       = regexp.MustCompile(`(?i)<[^>]*\s(href|src|action|background|dynsrc|lowsrc|data)\s*=\s*["']?\s*(javascript|vbscript|data|jav\s)`)
	styleAttr    = regexp.MustCompile(`(?i)<[^>]*\sstyle\s*=`)
)

func TestNoXSSVectorSurvivesTheSanitiser(t *testing.T) {
	for _, md := range xssCases {
		html, err := content.Render(md)
		if err != nil {
			t.Fatal(err)
		}
		for name, re := range map[string]*regexp.Regexp{"an active element": scriptTag, "an event handler": eventHandler, "a script URL": badURL, "a style attribute": styleAttr} {
			if m := re.FindString(html); m != "" {
				t.Errorf("%s survived (%q) of\n  %s\n→ %s", name, m, md, html)
			}
		}
	}
}

func TestOrdinaryMarkdownIsKept(t *testing.T) {
	html, err := content.Render("Read the [guide](/help/category/article/create-your-store) or [mail us](mailto:help@example.com).\n\n- one\n- two\n\n![A shop](/assets/shop.png)\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<a href="/help/category/article/create-your-store">guide</a>`, `<a href="mailto:help@example.com">`, "<li>one</li>", `<img src="/assets/shop.png" alt="A shop">`} {
		if !strings.Contains(html, want) {
			t.Errorf("%s is missing from %s", want, html)
		}
	}
}

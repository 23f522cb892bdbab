# Varnish in front of the Omnibus edges: the CDN-like cache docs/operating.md
# recommends ("A cache in front"), and the one make test runs
# (deploy/stack/varnish_test.go, Debian's varnishd). The rules mirror the
# edge's own page cache:
#
#   - a page depends on two cookies only, the session (omnibus_session,
#     shared/http.json's sessionCookie): a request carrying it always goes
#     to the edge, which answers the signed-in page "private, no-cache";
#     the theme cookie (omnibus_theme, light or dark) keeps a copy per
#     theme; other cookies are dropped so anonymous pages stay shared;
#   - what the edge may share says so with s-maxage (pages) or max-age
#     (hashed assets: a year, immutable); Varnish keeps it that long, and
#     stale-while-revalidate becomes its grace;
#   - everything else (POST, /api/, the sign-in callback, a Set-Cookie or a
#     private answer) passes through untouched;
#   - a purge on any edge comes here too: the edge where it began sends
#     PURGE with X-Omnibus-Purge-Regex (CDN_PURGE_URLS=http://varnish:6081/),
#     which bans every page whose path matches.
#
# Change the backend to your edges' Service or load balancer and the acl to
# the edges' network. Vary (Accept-Encoding) is left as the edge sends it.
vcl 4.1;

backend edge {
    .host = "127.0.0.1";
    .port = "8080";
    # Pages stream as the renderer writes them; a render may take up to the
    # edge's RENDERER_TIMEOUT (30 s).
    .first_byte_timeout = 35s;
    .between_bytes_timeout = 35s;
}

# Who may purge: the edges.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.X-Omnibus-Purge-Regex) {
            return (synth(400, "X-Omnibus-Purge-Regex is missing"));
        }
        ban("obj.http.X-Omnibus-Path ~ " + req.http.X-Omnibus-Purge-Regex);
        return (synth(200, "Banned"));
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # The API and the Google sign-in callback read their own cookies and
    # are never shared.
    if (req.url ~ "^/(api/|sso-redirect)") {
        return (pass);
    }
    # A signed-in visitor never gets the shared copy (and theirs, marked
    # private by the edge, is never stored).
    if (req.http.Cookie ~ "(^|;\s*)omnibus_session=" || req.http.Authorization) {
        return (pass);
    }
    # The theme cookie (light or dark) is the one other cookie a page
    # depends on (edge/internal/theme): kept alone, and part of the hash
    # (vcl_hash), so each theme has its own copy, as in the edge's cache.
    # No other cookie changes a page (the edge's own cache ignores them too).
    if (req.http.Cookie ~ "(^|;\s*)omnibus_theme=(light|dark)(;|$)") {
        set req.http.Cookie = regsub(req.http.Cookie, "^(.*;\s*)?omnibus_theme=(light|dark)(;.*)?$", "omnibus_theme=\2");
    } else {
        unset req.http.Cookie;
    }
    return (hash);
}

sub vcl_hash {
    # Only the theme cookie is left by now (vcl_recv); the built-in rule
    # adds the URL and host.
    if (req.http.Cookie) {
        hash_data(req.http.Cookie);
    }
}

sub vcl_backend_response {
    # The path, for bans: the ban lurker tests stored objects, not requests.
    set beresp.http.X-Omnibus-Path = regsub(bereq.url, "\?.*$", "");
    # A 404 or an error the edge marked no-store is not kept (the built-in
    # rules below honour no-store, private, no-cache and Set-Cookie).
}

sub vcl_deliver {
    unset resp.http.X-Omnibus-Path;
    if (obj.hits > 0) {
        set resp.http.X-CDN-Cache = "HIT";
    } else {
        set resp.http.X-CDN-Cache = "MISS";
    }
}

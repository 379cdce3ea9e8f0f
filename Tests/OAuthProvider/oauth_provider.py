#!/usr/bin/env python3
"""A real OAuth 2.0 / OpenID Connect provider for tests: django-oauth-toolkit (DOT).

Usage:
    VENV/bin/python oauth_provider.py CERT_PEM KEY_PEM FOLDER ISSUER_HOST

It serves HTTPS on 127.0.0.1 on a free port, with the given certificate and key, and:

* prints exactly one line on stdout, ``PORT https=<port>``, once it is ready to serve;
* serves until its standard input closes (EOF), then removes FOLDER and exits 0.

The issuer is ``https://ISSUER_HOST:<port>/o`` (no trailing slash): that exact string is
the ``issuer`` of the discovery document (OpenID Connect Discovery 1.0 §3) and the
``iss`` of every ID token (OIDC Core §2). Clients reach the server by resolving
ISSUER_HOST to 127.0.0.1 themselves (e.g. curl's --resolve).

FOLDER is a temporary folder owned by the caller; the SQLite database lives in it.
Nothing is logged about requests: no tokens, codes or passwords are ever printed.
Set OAUTH_PROVIDER_VERBOSE=1 to get DOT's warnings (e.g. why a redirect URI did not
match) on stderr.

See README.md next to this file for the users, clients and misbehaving clients.
"""

import base64
import html
import http.server
import io
import json
import os
import secrets
import shutil
import signal
import socket
import socketserver
import ssl
import string
import sys
import threading
from pathlib import Path
from urllib.parse import parse_qsl, unquote_plus, urlencode
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer


# ---------------------------------------------------------------------------
# Fixture data
# ---------------------------------------------------------------------------

USERNAME = "alice"
PASSWORD = "wonderland-7"

# Registered for every client (whitespace separated, as DOT stores them):
# * an https URI;
# * a private-use URI scheme, RFC 8252 §7.1 (scheme listed in ALLOWED_REDIRECT_URI_SCHEMES);
# * a loopback IP URI, RFC 8252 §7.3: DOT allows any port at request time for
#   http://127.0.0.1 and http://[::1] redirect URIs (oauth2_provider.models).
REDIRECT_URIS = [
    "https://app.test/callback",
    "com.example.app:/oauth/callback",
    "http://127.0.0.1/callback",
]
CUSTOM_SCHEME = "com.example.app"

CONFIDENTIAL_SECRET = "s3cret-basic"

# client_id -> (display name, client type, what the misbehaviour middleware does)
CLIENTS = {
    "public-app": ("Public App", "public", "well-behaved public client"),
    "confidential-app": ("Confidential App", "confidential", "well-behaved confidential client"),
    "iss-app": ("Iss App", "public", "authorization response carries the correct RFC 9207 iss"),
    "tampered-state": ("Tampered State App", "public", "authorization response has another state"),
    "wrong-iss": ("Wrong Iss App", "public", "authorization response has iss=https://evil.test/o"),
    "bad-signature": ("Bad Signature App", "public", "token response id_token signature corrupted"),
    "wrong-nonce": ("Wrong Nonce App", "public", "nonce replaced before DOT sees it"),
    "form-post": ("Form Post App", "public", "authorization response as an auto-submitting form"),
    "open-redirect": ("Open Redirect App", "public", "authorization response sent to /elsewhere"),
}

WRONG_ISSUER = "https://evil.test/o"
SUBSTITUTE_NONCE = "nonce-substituted-by-the-provider"
OPEN_REDIRECT_TARGET = "https://app.test/elsewhere"

# The two DOT endpoints the misbehaviour middleware watches (DOT's urls mounted at /o/).
AUTHORIZE_PATH = "/o/authorize/"
TOKEN_PATH = "/o/token/"


# ---------------------------------------------------------------------------
# Templates (kept in memory: Django's locmem loader)
# ---------------------------------------------------------------------------

PAGE_STYLE = """<style>
body { font-family: sans-serif; max-width: 32em; margin: 3em auto; }
.errorlist { color: #b00; }
label, input { display: block; margin: .3em 0; }
</style>"""

TEMPLATES = {
    # Django's LoginView renders registration/login.html with an AuthenticationForm:
    # fields `username` and `password`, plus the hidden `next` and CSRF token.
    "registration/login.html": """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Sign in · Test Identity Provider</title>
""" + PAGE_STYLE + """
</head>
<body>
<h1>Sign in</h1>
{% if form.errors %}<p class="error">Sign-in failed.</p>{% endif %}
{{ form.non_field_errors }}
<form method="post" action="{% url 'login' %}">
{% csrf_token %}
<label for="id_username">Username</label>
{{ form.username }}
<label for="id_password">Password</label>
{{ form.password }}
<input type="hidden" name="next" value="{{ next }}">
<input type="submit" value="Sign in">
</form>
</body>
</html>
""",
    # DOT's own oauth2_provider/authorize.html (the consent page) is used unchanged; it
    # extends this base, which replaces DOT's (that one has an empty <title> and links
    # a static CSS file this fixture does not serve).
    "oauth2_provider/base.html": """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{% block title %}{% if error %}Error: {{ error.error }}{% elif application %}Authorize {{ application.name }}{% else %}OAuth{% endif %} · Test Identity Provider{% endblock title %}</title>
""" + PAGE_STYLE + """
</head>
<body>
<div class="container">
{% block content %}{% endblock content %}
</div>
</body>
</html>
""",
    "home.html": """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Test Identity Provider</title></head>
<body>
<h1>Test Identity Provider</h1>
{% if user.is_authenticated %}<p>Signed in as {{ user.username }}.</p>{% else %}<p>Not signed in.</p>{% endif %}
</body>
</html>
""",
}


# ---------------------------------------------------------------------------
# Django settings
# ---------------------------------------------------------------------------

def generate_rsa_private_key_pem():
    """A fresh RSA 2048 key for RS256 ID tokens (published in the JWKS)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")


def configure_django(folder, issuer, issuer_host):
    from django.conf import settings

    verbose = os.environ.get("OAUTH_PROVIDER_VERBOSE") == "1"
    settings.configure(
        DEBUG=False,
        SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS=[issuer_host, "127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,  # `urlpatterns` below, filled in by install_urlpatterns()
        INSTALLED_APPS=[
            "django.contrib.auth",
            "django.contrib.contenttypes",
            "django.contrib.sessions",
            "oauth2_provider",
        ],
        MIDDLEWARE=[
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.middleware.common.CommonMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            # Innermost, so it sees DOT's responses first and rewrites requests last.
            f"{__name__}.MisbehavingClientsMiddleware",
        ],
        TEMPLATES=[{
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "OPTIONS": {
                "loaders": [(
                    "django.template.loaders.cached.Loader", [
                        ("django.template.loaders.locmem.Loader", TEMPLATES),
                        "django.template.loaders.app_directories.Loader",  # DOT's templates
                    ],
                )],
                "context_processors": [
                    "django.template.context_processors.request",
                    "django.contrib.auth.context_processors.auth",
                ],
            },
        }],
        DATABASES={"default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(Path(folder) / "provider.sqlite3"),
            "OPTIONS": {
                # The server is threaded: wait for locks instead of failing, and take the
                # write lock up front so two writers cannot deadlock on a lock upgrade.
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;",
            },
        }},
        # Create the tables straight from the models ("migrate --run-syncdb"), as Django's
        # test runner does with TEST={"MIGRATE": False}: 0.1 s instead of 1.5 s for
        # replaying every migration. The database always starts empty, so the data
        # migrations (DOT's RunPython steps on existing rows) have nothing to do.
        MIGRATION_MODULES={app: None for app in ("auth", "contenttypes", "sessions",
                                                 "oauth2_provider")},
        DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
        USE_TZ=True,
        TIME_ZONE="UTC",
        USE_I18N=True,
        LANGUAGE_CODE="en",
        # Test fixture only: MD5 keeps start-up and sign-in fast. Never use it for real.
        # DOT also hashes client secrets with the first of these ("default" hasher).
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        LOGIN_URL="/accounts/login/",
        LOGIN_REDIRECT_URL="/",
        # Served over HTTPS only.
        SESSION_COOKIE_SECURE=True,
        CSRF_COOKIE_SECURE=True,
        LOGGING={
            "version": 1,
            "disable_existing_loggers": False,
            "handlers": {
                "stderr": {"class": "logging.StreamHandler"},
                "null": {"class": "logging.NullHandler"},
            },
            "loggers": {
                "django": {"handlers": ["null"], "propagate": False},
                # Tracebacks of 500 errors only (path, no query string or body).
                "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
                "oauth2_provider": {
                    "handlers": ["stderr" if verbose else "null"],
                    "level": "WARNING",
                    "propagate": False,
                },
                # oauthlib's debug logs include tokens: never shown.
                "oauthlib": {"handlers": ["null"], "propagate": False},
            },
        },
        OAUTH2_PROVIDER={
            "OIDC_ENABLED": True,
            # Used verbatim by DOT for the discovery `issuer`, the ID token `iss` and the
            # host part of every endpoint in the discovery document.
            "OIDC_ISS_ENDPOINT": issuer,
            "OIDC_RSA_PRIVATE_KEY": generate_rsa_private_key_pem(),
            # RFC 7636 PKCE for every client (DOT's default, stated here on purpose).
            "PKCE_REQUIRED": True,
            "SCOPES": {
                "openid": "Sign you in (OpenID Connect)",
                "profile": "See your name and username",
                "email": "See your email address",
                "offline_access": "Keep access while you are away",
            },
            "DEFAULT_SCOPES": ["openid"],
            "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http", CUSTOM_SCHEME],
            # Advertise only what the registered clients can use (discovery and RFC 8414).
            "OIDC_RESPONSE_TYPES_SUPPORTED": ["code"],
            "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
            "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
            # Consent page on every authorization request (DOT's default).
            "REQUEST_APPROVAL_PROMPT": "force",
            # RFC 9700 behaviour gates that DOT 4.0 will turn on by default: refuse the
            # implicit and password grants, PKCE "plain", and access tokens in query
            # strings. The RFC 9207 `iss` gate (COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS)
            # stays off on purpose: only iss-app gets `iss`, from the middleware below.
            "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
            "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
            "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
            "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
            # Resolved on first use, after install_validator() has defined it.
            "OAUTH2_VALIDATOR_CLASS": f"{__name__}.ClaimsValidator",
        },
    )


# Filled in after django.setup() (ROOT_URLCONF points at this module).
urlpatterns = []


def install_urlpatterns():
    from django.contrib.auth import views as auth_views
    from django.urls import include, path
    from django.views.generic import TemplateView
    from oauth2_provider.views import OAuthServerMetadataView

    urlpatterns[:] = [
        path("", TemplateView.as_view(template_name="home.html"), name="home"),
        path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
        path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
        # DOT: authorize/, token/, revoke_token/, introspect/, .well-known/openid-configuration,
        # .well-known/jwks.json, userinfo/, ...
        path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
        # RFC 8414 §3.1: for the issuer https://host/o the metadata document is at
        # /.well-known/oauth-authorization-server/o (DOT also serves the
        # /o/.well-known/oauth-authorization-server form through its urls above).
        path(".well-known/oauth-authorization-server/o", OAuthServerMetadataView.as_view()),
    ]


def install_validator():
    """Define ClaimsValidator (DOT's validator plus alice's standard claims)."""
    from oauth2_provider.oauth2_validators import OAuth2Validator

    class ClaimsValidator(OAuth2Validator):
        # OIDC Core §5.1 standard claims; DOT releases each one only when its scope
        # (OAuth2Validator.oidc_claim_scope: profile, email) was granted, OIDC Core §5.4.
        def get_additional_claims(self):
            return {
                "name": lambda request: request.user.get_full_name(),
                "given_name": lambda request: request.user.first_name,
                "family_name": lambda request: request.user.last_name,
                "preferred_username": lambda request: request.user.get_username(),
                "email": lambda request: request.user.email,
                "email_verified": lambda request: True,
            }

    globals()["ClaimsValidator"] = ClaimsValidator


def create_database_and_fixtures():
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from oauth2_provider.models import get_application_model

    call_command("migrate", run_syncdb=True, verbosity=0, interactive=False, skip_checks=True)

    get_user_model().objects.create_user(
        USERNAME, email="alice@example.test", password=PASSWORD,
        first_name="Alice", last_name="Liddell",
    )

    Application = get_application_model()
    for client_id, (name, client_type, _behaviour) in CLIENTS.items():
        Application.objects.create(
            client_id=client_id,
            name=name,
            client_type=client_type,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            # DOT ≥ 2 hashes the secret on save (hash_client_secret=True); the token
            # endpoint then checks the plaintext against the hash. Public clients have
            # no secret.
            client_secret=CONFIDENTIAL_SECRET if client_type == "confidential" else "",
            hash_client_secret=True,
            redirect_uris=" ".join(REDIRECT_URIS),
            algorithm=Application.RS256_ALGORITHM,
            skip_authorization=False,  # always show the consent page
        )


# ---------------------------------------------------------------------------
# Misbehaving clients
# ---------------------------------------------------------------------------

BASE64URL_ALPHABET = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"


def corrupt_jws_signature(compact_jws):
    """Change the first characters of the signature (third segment) of a compact JWS.

    Every character stays in the base64url alphabet and the length is unchanged, so the
    token still parses (RFC 7515 §7.1) but its signature no longer verifies. The first
    characters carry full 6-bit groups, so the result is still canonical base64url.
    """
    header, payload, signature = compact_jws.split(".")
    flipped = "".join(
        BASE64URL_ALPHABET[(BASE64URL_ALPHABET.index(c) + 1) % 64] for c in signature[:8]
    )
    return ".".join([header, payload, flipped + signature[8:]])


def form_post_page(action, params):
    """OAuth 2.0 Form Post Response Mode §2/§5: the authorization response parameters as
    hidden fields of a form that posts itself to the redirect URI when the page loads."""
    from django.http import HttpResponse

    inputs = "\n".join(
        f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}"/>'
        for k, v in params
    )
    page = f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Submit This Form</title></head>
<body onload="document.forms[0].submit()">
<form method="post" action="{html.escape(action)}">
{inputs}
<noscript><p>JavaScript is off: press Continue to go back to the application.</p>
<input type="submit" value="Continue"/></noscript>
</form>
</body>
</html>
"""
    response = HttpResponse(page, content_type="text/html; charset=utf-8")
    # As in the spec's example: the response must not be cached.
    response["Cache-Control"] = "no-cache, no-store"
    response["Pragma"] = "no-cache"
    return response


def token_request_client_id(request):
    """client_id of the client at the token endpoint: HTTP Basic (RFC 6749 §2.3.1, with
    form-urlencoded id and secret) or the `client_id` body parameter."""
    authorization = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, credentials = authorization.partition(" ")
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(credentials).decode("utf-8")
            return unquote_plus(decoded.partition(":")[0])
        except (ValueError, UnicodeDecodeError):
            return ""
    return request.POST.get("client_id", "")


class MisbehavingClientsMiddleware:
    """Makes the provider misbehave for some client_ids, so clients can be tested
    against broken or malicious authorization servers. Other clients are untouched."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == AUTHORIZE_PATH:
            return self.authorization_endpoint(request)
        if request.path == TOKEN_PATH:
            return self.token_endpoint(request)
        return self.get_response(request)

    # -- authorization endpoint ------------------------------------------------------

    def authorization_endpoint(self, request):
        # GET: the authorization request. POST: the consent form, whose hidden fields
        # repeat the request's parameters.
        params = request.POST if request.method == "POST" else request.GET
        client_id = params.get("client_id", "")
        redirect_uri = params.get("redirect_uri", "")

        if client_id == "wrong-nonce":
            self.substitute_nonce(request)

        response = self.get_response(request)

        location = response.get("Location", "") if response.status_code in (302, 303) else ""
        if not redirect_uri or not location:
            return response
        # Only authorization responses (success or error, RFC 6749 §4.1.2 / §4.1.2.1):
        # redirects to the redirect URI, not the redirect to the login page.
        base, _, query = location.partition("?")
        if base != redirect_uri.partition("?")[0]:
            return response
        result = parse_qsl(query, keep_blank_values=True)

        if client_id == "tampered-state":
            # The client must compare state with the value it sent (RFC 6749 §10.12).
            if any(k == "state" for k, _ in result):
                result = [(k, "tampered-" + v if k == "state" else v) for k, v in result]
            else:
                result.append(("state", "tampered-state"))
        elif client_id == "iss-app":
            # RFC 9207 §2: `iss` is the issuer identifier of the authorization server.
            result = [(k, v) for k, v in result if k != "iss"] + [("iss", self.issuer())]
        elif client_id == "wrong-iss":
            # RFC 9207 §2.4: the client must reject a response whose `iss` differs.
            result = [(k, v) for k, v in result if k != "iss"] + [("iss", WRONG_ISSUER)]
        elif client_id == "open-redirect":
            # Not a registered redirect URI (RFC 6749 §3.1.2, RFC 9700 §4.1).
            base = OPEN_REDIRECT_TARGET
        elif client_id == "form-post":
            return form_post_page(base, result)
        else:
            return response

        response["Location"] = base + "?" + urlencode(result)
        return response

    @staticmethod
    def substitute_nonce(request):
        """Replace `nonce` (OIDC Core §3.1.2.1) before DOT reads it. oauthlib reads the
        query string (request.get_full_path()), DOT's consent form reads request.POST."""
        if request.method == "GET" and "nonce" in request.GET:
            query = request.GET.copy()
            query["nonce"] = SUBSTITUTE_NONCE
            request.GET = query
            request.META["QUERY_STRING"] = query.urlencode()
        elif request.method == "POST" and "nonce" in request.POST:
            form = request.POST.copy()
            form["nonce"] = SUBSTITUTE_NONCE
            request.POST = form

    @staticmethod
    def issuer():
        from django.conf import settings

        return settings.OAUTH2_PROVIDER["OIDC_ISS_ENDPOINT"]

    # -- token endpoint --------------------------------------------------------------

    def token_endpoint(self, request):
        client_id = token_request_client_id(request) if request.method == "POST" else ""
        response = self.get_response(request)
        if client_id == "bad-signature" and response.status_code == 200:
            # The client must validate the ID token's signature, OIDC Core §3.1.3.7 step 6.
            body = json.loads(response.content)
            if "id_token" in body:
                body["id_token"] = corrupt_jws_signature(body["id_token"])
                response.content = json.dumps(body).encode("utf-8")
                if response.has_header("Content-Length"):
                    response["Content-Length"] = str(len(response.content))
        return response


# ---------------------------------------------------------------------------
# HTTPS server: threaded, HTTP/1.1 with keep-alive, TLS handshake per connection
# ---------------------------------------------------------------------------

class WSGIHandler(WSGIRequestHandler):
    """Runs each request through the WSGI app, buffering the response so it can be sent
    with a Content-Length and the connection kept alive (HTTP/1.1)."""

    protocol_version = "HTTP/1.1"
    timeout = 30  # seconds an idle keep-alive connection stays open

    def handle(self):
        # wsgiref handles one request per connection; BaseHTTPRequestHandler loops.
        http.server.BaseHTTPRequestHandler.handle(self)

    def log_message(self, format, *args):
        pass  # no request logs

    def run_wsgi_app(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.send_error(411, "Send a Content-Length")
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            self.send_error(400, "Bad Content-Length")
            return
        request_body = self.rfile.read(length) if length > 0 else b""

        environ = self.get_environ()
        environ.update({
            "wsgi.input": io.BytesIO(request_body),
            "wsgi.errors": sys.stderr,
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "https",
            "wsgi.multithread": True,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
            "HTTPS": "on",
        })

        status_and_headers = []
        chunks = []

        def start_response(status, headers, exc_info=None):
            if exc_info and status_and_headers:
                raise exc_info[1].with_traceback(exc_info[2])
            status_and_headers[:] = [status, headers]
            return chunks.append

        result = self.server.get_app()(environ, start_response)
        try:
            chunks.extend(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        body = b"".join(chunks)
        status, headers = status_and_headers

        code, _, reason = status.partition(" ")
        self.send_response(int(code), reason)
        for name, value in headers:
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        elif self.request_version == "HTTP/1.0":
            self.send_header("Connection", "keep-alive")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_HEAD = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = run_wsgi_app


class ThreadingHTTPSServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, address, ssl_context):
        self.ssl_context = ssl_context
        super().__init__(address, WSGIHandler)

    def server_bind(self):
        # Like HTTPServer.server_bind, without its reverse DNS look-up (socket.getfqdn).
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]
        self.setup_environ()

    def finish_request(self, request, client_address):
        # TLS handshake in the connection's own thread, so a slow or silent client
        # never blocks the accept loop.
        request.settimeout(10)
        try:
            tls = self.ssl_context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return
        try:
            super().finish_request(tls, client_address)
        finally:
            try:
                tls.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            tls.close()

    def handle_error(self, request, client_address):
        pass  # client resets and timeouts are not worth reporting


def make_ssl_context(cert_pem, key_pem):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert_pem, key_pem)
    context.set_alpn_protocols(["http/1.1"])
    return context


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def wait_for_stdin_eof():
    while os.read(sys.stdin.fileno(), 65536):
        pass


def main(argv):
    if len(argv) != 5:
        print("usage: oauth_provider.py CERT_PEM KEY_PEM FOLDER ISSUER_HOST", file=sys.stderr)
        return 2
    cert_pem, key_pem, folder, issuer_host = argv[1:]

    # SIGTERM ends the process the same way as EOF on stdin (FOLDER is still removed).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))

    server = None
    try:
        # Bind first: the issuer contains the port.
        server = ThreadingHTTPSServer(("127.0.0.1", 0), make_ssl_context(cert_pem, key_pem))
        port = server.server_address[1]
        issuer = f"https://{issuer_host}:{port}/o"

        import django
        configure_django(folder, issuer, issuer_host)
        django.setup()
        install_urlpatterns()
        install_validator()
        create_database_and_fixtures()

        from django.core.wsgi import get_wsgi_application
        server.set_app(get_wsgi_application())
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                         daemon=True, name="https").start()

        print(f"PORT https={port}", flush=True)
        wait_for_stdin_eof()
        server.shutdown()
        return 0
    finally:
        if server is not None:
            server.server_close()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

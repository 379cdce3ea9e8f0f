#!/usr/bin/env python3
"""Smoke test of oauth_provider.py, run with the provider's venv:

    VENV/bin/python Tests/OAuthProvider/smoke_test.py

Makes a throw-away CA and server certificate with openssl (P-256, SAN DNS:id.test and
IP:127.0.0.1), starts the provider, drives its real login and consent pages like a
browser (cookies, CSRF token, hidden fields, submit button, Origin/Referer headers) and
checks the OAuth 2.0 / OpenID Connect behaviour of every registered client.

Prints one PASS/FAIL line per check (never a token, code or password) and exits non-zero
if any check fails. Its temporary folder is removed at the end.
"""

import base64
import hashlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import requests
import urllib3.util.connection
from jwcrypto import jwk, jwt

HERE = Path(__file__).resolve().parent
ISSUER_HOST = "id.test"
USERNAME, PASSWORD = "alice", "wonderland-7"
APP_CALLBACK = "https://app.test/callback"
CUSTOM_CALLBACK = "com.example.app:/oauth/callback"
SCOPE = "openid profile email offline_access"

# --resolve id.test:PORT:127.0.0.1, as curl does: connect to 127.0.0.1 while TLS (SNI and
# certificate name check) and the Host header still use id.test.
_create_connection = urllib3.util.connection.create_connection


def _resolve_issuer_host(address, *args, **kwargs):
    host, port = address
    if host == ISSUER_HOST:
        host = "127.0.0.1"
    return _create_connection((host, port), *args, **kwargs)


urllib3.util.connection.create_connection = _resolve_issuer_host


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------

failures = []


def check(name, condition, detail=""):
    """Print PASS/FAIL. `detail` must never contain a secret."""
    if condition:
        print(f"PASS: {name}")
    else:
        failures.append(name)
        print(f"FAIL: {name}" + (f" ({detail})" if detail else ""))
    return bool(condition)


def query_of(url):
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def without_query(url):
    return url.partition("?")[0]


# ---------------------------------------------------------------------------
# A minimal browser: cookies, HTML forms, Origin and Referer on form posts
# ---------------------------------------------------------------------------

class FormParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"method": (attrs.get("method") or "get").lower(),
                               "action": attrs.get("action") or "", "fields": [], "buttons": []})
        elif tag == "input" and self.forms:
            kind = (attrs.get("type") or "text").lower()
            entry = (attrs.get("name"), attrs.get("value") or "")
            if kind == "submit":
                self.forms[-1]["buttons"].append(entry)
            else:
                self.forms[-1]["fields"].append((kind,) + entry)
        elif tag == "title":
            self._in_title = True

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def parse_page(response):
    parser = FormParser()
    parser.feed(response.text)
    return parser


class Browser:
    def __init__(self, origin, ca_file):
        self.origin = origin
        self.ca_file = ca_file  # passed per request: REQUESTS_CA_BUNDLE would beat Session.verify
        self.session = requests.Session()

    def get(self, url, **kwargs):
        return self.session.get(urljoin(self.origin, url), allow_redirects=False, timeout=10,
                                verify=self.ca_file, **kwargs)

    def follow(self, response):
        """Follow redirects that stay on the provider (never to the redirect URI)."""
        while response.status_code in (301, 302, 303):
            target = urljoin(response.url, response.headers["Location"])
            if not target.startswith(self.origin + "/"):
                break
            response = self.get(target)
        return response

    def submit(self, page, fill=None, button=None, send_origin=True):
        """Submit the page's first form as a browser would: every input, the filled-in
        values, and the name/value of the clicked submit button (if it has a name)."""
        form = parse_page(page).forms[0]
        data = [(name, value) for _kind, name, value in form["fields"] if name]
        fill = fill or {}
        data = [(name, fill.get(name, value)) for name, value in data]
        if button is not None and button[0]:
            data.append(button)
        headers = {"Origin": self.origin, "Referer": page.url} if send_origin else {}
        return self.session.post(urljoin(page.url, form["action"]) if form["action"] else page.url,
                                 data=data, headers=headers, allow_redirects=False, timeout=10,
                                 verify=self.ca_file)


# ---------------------------------------------------------------------------
# OAuth helpers
# ---------------------------------------------------------------------------

def pkce_pair():
    verifier = secrets.token_urlsafe(48)  # RFC 7636 §4.1: 43..128 characters
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.rstrip(b"=").decode()


class AuthorizationRequest:
    def __init__(self, client_id, redirect_uri=APP_CALLBACK, scope=SCOPE, **overrides):
        self.client_id = client_id
        self.redirect_uri = redirect_uri
        self.state = secrets.token_urlsafe(16)
        self.nonce = secrets.token_urlsafe(16)
        self.verifier, challenge = pkce_pair()
        self.params = {
            "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
            "scope": scope, "state": self.state, "nonce": self.nonce,
            "code_challenge": challenge, "code_challenge_method": "S256",
        }
        for key, value in overrides.items():
            if value is None:
                self.params.pop(key, None)
            else:
                self.params[key] = value

    def url(self, authorization_endpoint):
        return authorization_endpoint + "?" + urlencode(self.params)


def consent_page(browser, config, request):
    """GET the authorization endpoint as a signed-in user: the consent page."""
    return browser.follow(browser.get(request.url(config["authorization_endpoint"])))


def authorize(browser, config, request, allow=True):
    """Consent page, then Authorize (or Cancel): the authorization response."""
    page = consent_page(browser, config, request)
    form = parse_page(page).forms[0] if page.status_code == 200 and parse_page(page).forms else None
    if form is None:
        return page
    wanted = ("allow", "Authorize") if allow else (None, "Cancel")
    button = next(b for b in form["buttons"] if b[1] == wanted[1])
    return browser.submit(page, button=button)


def token_request(config, ca_file, data, auth=None):
    return requests.post(config["token_endpoint"], data=data, auth=auth, verify=ca_file,
                         timeout=10)


def exchange_code(config, ca_file, request, code, auth=None, **extra):
    data = {"grant_type": "authorization_code", "code": code,
            "redirect_uri": request.redirect_uri, "code_verifier": request.verifier}
    if auth is None:
        data["client_id"] = request.client_id
    data.update(extra)
    return token_request(config, ca_file, data, auth=auth)


def verify_id_token(id_token, jwks):
    """Claims of a verified RS256 ID token, or None if its signature does not verify."""
    try:
        token = jwt.JWT(jwt=id_token, key=jwks, algs=["RS256"], check_claims=False)
    except Exception:  # jwcrypto raises several types for a bad or unverifiable token
        return None
    return json.loads(token.claims)


def unverified_claims(id_token):
    payload = id_token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def error_of(response):
    try:
        return response.json().get("error")
    except ValueError:
        return None


# ---------------------------------------------------------------------------
# The test
# ---------------------------------------------------------------------------

def make_certificates(folder):
    """A throw-away CA and a P-256 server certificate for id.test and 127.0.0.1."""
    def openssl(*args):
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=Smoke Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=id.test")
    Path(folder, "server.ext").write_text(
        "subjectAltName=DNS:id.test,IP:127.0.0.1\n"
        "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-CAcreateserial", "-out", "server.pem", "-days", "1", "-extfile", "server.ext")
    return Path(folder, "ca.pem"), Path(folder, "server.pem"), Path(folder, "server.key")


def run_checks(origin, issuer, ca_file):
    ca = str(ca_file)

    # -- Discovery (OpenID Connect Discovery 1.0 §4) and JWKS -------------------------
    response = requests.get(issuer + "/.well-known/openid-configuration", verify=ca, timeout=10)
    check("discovery document is served", response.status_code == 200, response.status_code)
    config = response.json()
    check("discovery issuer is exactly https://id.test:PORT/o", config.get("issuer") == issuer,
          config.get("issuer"))
    check("endpoints are under the issuer",
          all(config.get(k, "").startswith(issuer + "/") for k in
              ("authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri")))
    check("only S256 PKCE is advertised", config.get("code_challenge_methods_supported") == ["S256"],
          config.get("code_challenge_methods_supported"))
    check("RFC 9207 iss support is not advertised",
          "authorization_response_iss_parameter_supported" not in config)
    check("both client_secret_basic and client_secret_post are advertised",
          set(config.get("token_endpoint_auth_methods_supported", [])) >=
          {"client_secret_basic", "client_secret_post"})

    # RFC 8414 §3.1: the metadata of issuer https://host/o is at
    # https://host/.well-known/oauth-authorization-server/o
    response = requests.get(origin + "/.well-known/oauth-authorization-server/o", verify=ca,
                            timeout=10)
    check("RFC 8414 metadata at /.well-known/oauth-authorization-server/o has the same issuer",
          response.status_code == 200 and response.json().get("issuer") == issuer
          and response.json().get("token_endpoint") == config["token_endpoint"],
          response.status_code)

    response = requests.get(config["jwks_uri"], verify=ca, timeout=10)
    keys = response.json().get("keys", [])
    check("JWKS has one RS256 RSA signing key with a kid",
          len(keys) == 1 and keys[0].get("kty") == "RSA" and keys[0].get("alg") == "RS256"
          and keys[0].get("kid"))
    jwks = jwk.JWKSet.from_json(response.text)

    # -- Sign-in --------------------------------------------------------------------
    browser = Browser(origin, ca)
    request = AuthorizationRequest("public-app")
    response = browser.get(request.url(config["authorization_endpoint"]))
    location = response.headers.get("Location", "")
    check("unauthenticated authorization request redirects to the login page",
          response.status_code == 302 and location.startswith("/accounts/login/?next="),
          response.status_code)
    check("HTTP/1.1 with keep-alive", response.raw.version == 11
          and response.headers.get("Connection", "").lower() != "close")

    login = browser.follow(response)
    login_page = parse_page(login)
    form = login_page.forms[0] if login_page.forms else {"fields": [], "buttons": [], "action": ""}
    names = {name for _kind, name, _value in form["fields"]}
    check("login page has a <title>", login.status_code == 200 and "Sign in" in login_page.title,
          login_page.title)
    check("login form: username, password, next, csrfmiddlewaretoken; posts to /accounts/login/",
          {"username", "password", "next", "csrfmiddlewaretoken"} <= names
          and form["action"] == "/accounts/login/", sorted(n for n in names if n))
    check("login page sets the csrftoken cookie", "csrftoken" in browser.session.cookies)

    response = browser.submit(login, fill={"username": USERNAME, "password": PASSWORD},
                              button=form["buttons"][0], send_origin=False)
    check("login POST without Origin/Referer is refused over HTTPS (Django CSRF): 403",
          response.status_code == 403, response.status_code)

    response = browser.submit(login, fill={"username": USERNAME, "password": "wrong-password"},
                              button=form["buttons"][0])
    check("wrong password shows the login page again with an error",
          response.status_code == 200 and "Please enter a correct username and password" in
          response.text and parse_page(response).forms, response.status_code)

    response = browser.submit(login, fill={"username": USERNAME, "password": PASSWORD},
                              button=form["buttons"][0])
    check("right password redirects back to the authorization request",
          response.status_code == 302 and
          response.headers.get("Location", "").startswith("/o/authorize/?"), response.status_code)
    check("session cookie is set", "sessionid" in browser.session.cookies)

    # -- Consent --------------------------------------------------------------------
    consent = browser.follow(response)
    consent_parsed = parse_page(consent)
    form = consent_parsed.forms[0] if consent_parsed.forms else {"fields": [], "buttons": []}
    hidden = {name: value for kind, name, value in form["fields"] if kind == "hidden"}
    check("consent page has a meaningful <title>",
          consent.status_code == 200 and "Authorize Public App" in consent_parsed.title,
          consent_parsed.title)
    check("consent form carries the request in hidden fields",
          {"csrfmiddlewaretoken", "client_id", "redirect_uri", "response_type", "scope", "state",
           "nonce", "code_challenge", "code_challenge_method"} <= set(hidden)
          and hidden.get("state") == request.state and hidden.get("client_id") == "public-app",
          sorted(hidden))
    check("consent buttons: allow=Authorize and an unnamed Cancel",
          ("allow", "Authorize") in form["buttons"] and (None, "Cancel") in form["buttons"],
          form["buttons"])

    response = browser.submit(consent, button=("allow", "Authorize"))
    location = response.headers.get("Location", "")
    result = query_of(location)
    check("Authorize redirects (302) to the redirect URI with code and state",
          response.status_code == 302 and without_query(location) == APP_CALLBACK
          and result.get("code") and result.get("state") == request.state, response.status_code)
    check("normal clients get no RFC 9207 iss in the authorization response", "iss" not in result)

    # -- Token endpoint ---------------------------------------------------------------
    response = exchange_code(config, ca, request, result.get("code", ""))
    tokens = response.json() if response.status_code == 200 else {}
    check("code exchange returns access, refresh and ID tokens (Bearer)",
          response.status_code == 200 and tokens.get("token_type") == "Bearer"
          and all(tokens.get(k) for k in ("access_token", "refresh_token", "id_token")),
          response.status_code)
    check("token response is not cacheable (RFC 6749 §5.1)",
          "no-store" in response.headers.get("Cache-Control", ""))
    claims = verify_id_token(tokens.get("id_token", ""), jwks) or {}
    check("ID token signature verifies with the JWKS (RS256, kid)", bool(claims))
    check("ID token iss equals the discovery issuer exactly", claims.get("iss") == issuer,
          claims.get("iss"))
    check("ID token aud, nonce, sub, exp, email",
          claims.get("aud") in ("public-app", ["public-app"]) and claims.get("nonce") == request.nonce
          and claims.get("sub") and claims.get("exp") and claims.get("email") == "alice@example.test")

    response = requests.get(config["userinfo_endpoint"], verify=ca, timeout=10,
                            headers={"Authorization": "Bearer " + tokens.get("access_token", "")})
    userinfo = response.json() if response.status_code == 200 else {}
    check("userinfo returns alice's claims", userinfo.get("sub") == claims.get("sub")
          and userinfo.get("preferred_username") == USERNAME, response.status_code)

    response = exchange_code(config, ca, request, result.get("code", ""))
    check("replaying the code gives invalid_grant",
          response.status_code == 400 and error_of(response) == "invalid_grant",
          (response.status_code, error_of(response)))

    response = token_request(config, ca, {"grant_type": "refresh_token", "client_id": "public-app",
                                          "refresh_token": tokens.get("refresh_token", "")})
    refreshed = response.json() if response.status_code == 200 else {}
    check("refresh grant returns a new access token",
          response.status_code == 200 and refreshed.get("access_token")
          and refreshed.get("access_token") != tokens.get("access_token"), response.status_code)
    check("refresh token is rotated", refreshed.get("refresh_token")
          and refreshed.get("refresh_token") != tokens.get("refresh_token"))
    refreshed_claims = verify_id_token(refreshed.get("id_token", ""), jwks) or {}
    check("refresh response has a new valid ID token with the same iss and sub",
          refreshed_claims.get("iss") == issuer and refreshed_claims.get("sub") == claims.get("sub"))
    response = token_request(config, ca, {"grant_type": "refresh_token", "client_id": "public-app",
                                          "refresh_token": tokens.get("refresh_token", "")})
    check("the old refresh token no longer works (invalid_grant)",
          response.status_code == 400 and error_of(response) == "invalid_grant",
          (response.status_code, error_of(response)))

    # -- PKCE (RFC 7636) ------------------------------------------------------------
    request = AuthorizationRequest("public-app")
    code = query_of(authorize(browser, config, request).headers.get("Location", "")).get("code", "")
    response = exchange_code(config, ca, request, code, code_verifier=pkce_pair()[0])
    check("wrong code_verifier gives invalid_grant",
          response.status_code == 400 and error_of(response) == "invalid_grant",
          (response.status_code, error_of(response)))

    request = AuthorizationRequest("public-app", code_challenge=None)
    response = browser.get(request.url(config["authorization_endpoint"]))
    result = query_of(response.headers.get("Location", ""))
    check("authorization request without code_challenge is refused at once: invalid_request",
          response.status_code == 302 and result.get("error") == "invalid_request"
          and result.get("state") == request.state, (response.status_code, result.get("error")))

    # Without code_challenge_method oauthlib assumes "plain" (RFC 7636 §4.3) and shows the
    # consent page; DOT refuses "plain" (RFC 9700 §2.1.1) only when the user clicks Authorize.
    for method in (None, "plain"):
        request = AuthorizationRequest("public-app", code_challenge_method=method)
        response = authorize(browser, config, request)
        result = query_of(response.headers.get("Location", ""))
        check(f"code_challenge_method={method or '(missing)'}: invalid_request after consent",
              response.status_code == 302 and result.get("error") == "invalid_request"
              and result.get("state") == request.state, (response.status_code, result.get("error")))

    # -- Cancel, bad redirect URIs ----------------------------------------------------
    request = AuthorizationRequest("public-app")
    response = authorize(browser, config, request, allow=False)
    result = query_of(response.headers.get("Location", ""))
    check("Cancel redirects with error=access_denied and the state",
          response.status_code == 302 and result.get("error") == "access_denied"
          and result.get("state") == request.state, response.status_code)

    request = AuthorizationRequest("public-app", redirect_uri="https://app.test/not-registered")
    response = browser.get(request.url(config["authorization_endpoint"]))
    check("unregistered redirect URI: error page, no redirect",
          response.status_code == 400 and "Location" not in response.headers, response.status_code)

    # -- Native app redirect URIs (RFC 8252) -----------------------------------------
    request = AuthorizationRequest("public-app", redirect_uri=CUSTOM_CALLBACK)
    response = authorize(browser, config, request)
    location = response.headers.get("Location", "")
    check("private-use scheme redirect URI (RFC 8252 §7.1)",
          response.status_code == 302 and without_query(location) == CUSTOM_CALLBACK
          and query_of(location).get("state") == request.state, response.status_code)
    response = exchange_code(config, ca, request, query_of(location).get("code", ""))
    check("code for the private-use scheme redirect URI exchanges", response.status_code == 200,
          response.status_code)

    loopback = "http://127.0.0.1:54321/callback"
    request = AuthorizationRequest("public-app", redirect_uri=loopback)
    response = authorize(browser, config, request)
    location = response.headers.get("Location", "")
    check("loopback redirect URI with any port (RFC 8252 §7.3)",
          response.status_code == 302 and without_query(location) == loopback, response.status_code)
    response = exchange_code(config, ca, request, query_of(location).get("code", ""))
    check("code for the loopback redirect URI exchanges", response.status_code == 200,
          response.status_code)
    request = AuthorizationRequest("public-app", redirect_uri="http://127.0.0.1:54321/other")
    response = browser.get(request.url(config["authorization_endpoint"]))
    check("loopback redirect URI with another path is refused", response.status_code == 400,
          response.status_code)

    # -- Confidential client (RFC 6749 §2.3.1) -----------------------------------------
    for method in ("client_secret_basic", "client_secret_post"):
        request = AuthorizationRequest("confidential-app")
        code = query_of(authorize(browser, config, request).headers.get("Location", "")).get("code", "")
        if method == "client_secret_basic":
            response = exchange_code(config, ca, request, code, auth=("confidential-app", "s3cret-basic"))
        else:
            response = exchange_code(config, ca, request, code, client_secret="s3cret-basic")
        check(f"confidential-app with {method}", response.status_code == 200
              and response.json().get("id_token"), response.status_code)
    request = AuthorizationRequest("confidential-app")
    code = query_of(authorize(browser, config, request).headers.get("Location", "")).get("code", "")
    response = exchange_code(config, ca, request, code, auth=("confidential-app", "wrong-secret"))
    check("confidential-app with a wrong secret gives 401 invalid_client",
          response.status_code == 401 and error_of(response) == "invalid_client",
          (response.status_code, error_of(response)))
    response = exchange_code(config, ca, request, code)
    check("confidential-app without a secret gives 401 invalid_client",
          response.status_code == 401 and error_of(response) == "invalid_client",
          (response.status_code, error_of(response)))

    # -- Misbehaving clients ------------------------------------------------------------
    request = AuthorizationRequest("iss-app")
    result = query_of(authorize(browser, config, request).headers.get("Location", ""))
    check("iss-app: authorization response has iss equal to the issuer (RFC 9207)",
          result.get("iss") == issuer and result.get("code") and result.get("state") == request.state)

    request = AuthorizationRequest("wrong-iss")
    result = query_of(authorize(browser, config, request).headers.get("Location", ""))
    check("wrong-iss: authorization response has iss=https://evil.test/o",
          result.get("iss") == "https://evil.test/o" and result.get("code"))

    request = AuthorizationRequest("tampered-state")
    response = authorize(browser, config, request)
    result = query_of(response.headers.get("Location", ""))
    check("tampered-state: authorization response has another state",
          response.status_code == 302 and result.get("code") and result.get("state")
          and result.get("state") != request.state)

    request = AuthorizationRequest("open-redirect")
    response = authorize(browser, config, request)
    location = response.headers.get("Location", "")
    check("open-redirect: authorization response goes to https://app.test/elsewhere",
          without_query(location) == "https://app.test/elsewhere" and query_of(location).get("code")
          and query_of(location).get("state") == request.state)

    request = AuthorizationRequest("form-post")
    response = authorize(browser, config, request)
    page = parse_page(response)
    form = page.forms[0] if page.forms else {"method": "", "action": "", "fields": []}
    hidden = {name: value for kind, name, value in form["fields"] if kind == "hidden"}
    check("form-post: 200 HTML page with an auto-submitting POST form to the redirect URI",
          response.status_code == 200 and form["method"] == "post" and form["action"] == APP_CALLBACK
          and 'onload="document.forms[0].submit()"' in response.text
          and hidden.get("code") and hidden.get("state") == request.state, response.status_code)
    response = exchange_code(config, ca, request, hidden.get("code", ""))
    check("form-post: its code exchanges", response.status_code == 200, response.status_code)

    request = AuthorizationRequest("bad-signature")
    code = query_of(authorize(browser, config, request).headers.get("Location", "")).get("code", "")
    response = exchange_code(config, ca, request, code)
    id_token = response.json().get("id_token", "") if response.status_code == 200 else ""
    check("bad-signature: id_token signature does not verify, token still well-formed",
          id_token and verify_id_token(id_token, jwks) is None
          and unverified_claims(id_token).get("iss") == issuer
          and all(c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                  for c in id_token.split(".")[2]))

    request = AuthorizationRequest("wrong-nonce")
    code = query_of(authorize(browser, config, request).headers.get("Location", "")).get("code", "")
    response = exchange_code(config, ca, request, code)
    claims = verify_id_token(response.json().get("id_token", ""), jwks) or {} \
        if response.status_code == 200 else {}
    check("wrong-nonce: validly signed ID token with another nonce",
          claims.get("iss") == issuer and claims.get("nonce") and claims.get("nonce") != request.nonce)


def main():
    venv_python = sys.executable
    folder = tempfile.mkdtemp(prefix="oauth-provider-smoke-")
    provider = None
    try:
        ca_file, cert, key = make_certificates(folder)
        data_folder = Path(folder, "provider-data")
        data_folder.mkdir()
        stderr_file = open(Path(folder, "provider.stderr"), "w+")

        started = time.monotonic()
        provider = subprocess.Popen(
            [venv_python, str(HERE / "oauth_provider.py"), str(cert), str(key), str(data_folder),
             ISSUER_HOST],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr_file, text=True)
        first_line = provider.stdout.readline().strip()
        startup = time.monotonic() - started
        check("first stdout line is 'PORT https=<port>'",
              first_line.startswith("PORT https=") and first_line[11:].isdigit(), first_line)
        if failures:
            return 1
        print(f"INFO: start-up took {startup:.2f} s")
        port = int(first_line[11:])
        origin = f"https://{ISSUER_HOST}:{port}"

        try:
            run_checks(origin, origin + "/o", ca_file)
        except Exception as error:  # report where, not what: messages may quote URLs
            frame = traceback.extract_tb(error.__traceback__)[-1]
            check("checks ran to the end", False,
                  f"{type(error).__name__} at {Path(frame.filename).name}:{frame.lineno}")

        provider.stdin.close()
        try:
            code = provider.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
        check("provider exits 0 when its stdin closes", code == 0, code)
        check("provider printed nothing else on stdout", provider.stdout.read() == "")
        check("provider removed its folder", not data_folder.exists())
        stderr_file.seek(0)
        check("provider wrote nothing on stderr", stderr_file.read() == "")
    finally:
        if provider is not None and provider.poll() is None:
            provider.kill()
            provider.wait()
        shutil.rmtree(folder, ignore_errors=True)

    print(f"{'FAIL' if failures else 'PASS'}: smoke test"
          + (f" ({len(failures)} failed)" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

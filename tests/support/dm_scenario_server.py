#!/usr/bin/env python3
"""A stand-in for a dm-master's OpenAPI in tests: answers from a scenario file written for the test, and
checks every request it receives and every answer it serves against DM's published OpenAPI document
(dm/openapi/spec/dm.yaml of pingcap/tiflow) with jsonschema.

Scenario file (JSON):
  {"base": "other.json",                       # optional: its routes first, then these
   "mode": "leader" | "not-leader",            # not-leader: every request answered 502, no body, as a
                                               # master that cannot forward to the leader does
   "routes": {"GET /api/v1/tasks": {"status": 200, "body": {...}}, ...},
   "after": {"POST /api/v1/tasks/shop/stop": {"GET /api/v1/tasks": {...}}}}   # routes replaced once that
                                                                               # request has been answered
Routes are keyed by method and path without the query. A request the scenario does not answer gets 404 and
is a failure. Each exchange is one JSON line in --log: request, status, whether it was checked against the
document, and the violations found (each naming the field).

The document: --spec FILE, else $SYNCSCOPE_DM_OPENAPI_SPEC, else extracted with git from
$SYNCSCOPE_DM_OPENAPI_MIRROR (a clone of pingcap/tiflow) into --cache-dir. Without it, or without the
jsonschema and yaml modules, the scenarios are still served and the first line printed says, loudly, that
nothing is checked and why.
"""

import argparse
import http.server
import json
import os
import re
import ssl
import subprocess
import sys
import threading
import urllib.parse

SPEC_IN_REPOSITORY = "dm/openapi/spec/dm.yaml"


def find_spec(args):
    if args.spec:
        return args.spec, None
    env = os.environ.get("SYNCSCOPE_DM_OPENAPI_SPEC", "")
    if env:
        if not os.path.isfile(env):
            return None, "SYNCSCOPE_DM_OPENAPI_SPEC=%s is not a file" % env
        return env, None
    mirror = os.environ.get("SYNCSCOPE_DM_OPENAPI_MIRROR", "")
    if not mirror or not os.path.isdir(mirror):
        return None, ("no DM OpenAPI document: set SYNCSCOPE_DM_OPENAPI_SPEC to dm.yaml, or "
                      "SYNCSCOPE_DM_OPENAPI_MIRROR to a clone of pingcap/tiflow (%s is absent)" % (mirror or "unset"))
    os.makedirs(args.cache_dir, exist_ok=True)
    target = os.path.join(args.cache_dir, "dm.yaml")
    try:
        text = subprocess.run(["git", "-C", mirror, "show", "HEAD:" + SPEC_IN_REPOSITORY], check=True,
                              capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        return None, "git could not read %s from %s: %s" % (SPEC_IN_REPOSITORY, mirror, e)
    with open(target + ".tmp", "wb") as out:
        out.write(text)
    os.replace(target + ".tmp", target)
    return target, None


def openapi_to_jsonschema(node):
    """OpenAPI 3.0 schemas are JSON Schema draft 4 with a few keywords of their own; `nullable` is the one
    that changes what is valid: it becomes an anyOf with null."""
    if isinstance(node, list):
        return [openapi_to_jsonschema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: openapi_to_jsonschema(value) for key, value in node.items() if key not in ("example", "nullable")}
    if node.get("nullable") is True:
        return {"anyOf": [{"type": "null"}, out]}
    return out


def field_path(error):
    text = ""
    for part in error.absolute_path:
        text += "[%d]" % part if isinstance(part, int) else ("." if text else "") + str(part)
    return text or "(the whole body)"


def leaf_errors(error):
    """The errors under a `nullable` anyOf, without the null branch's own "is not of type 'null'"."""
    if not error.context:
        return [error]
    branches = [e for e in error.context if not (e.validator == "type" and e.validator_value == "null")]
    if not branches:
        return [error]
    return [leaf for branch in branches for leaf in leaf_errors(branch)]


class Document:
    def __init__(self, path):
        import jsonschema
        import yaml
        with open(path) as f:
            self.spec = yaml.safe_load(f)
        self.jsonschema = jsonschema
        self.components = openapi_to_jsonschema(self.spec.get("components", {}))
        self.routes = []
        for template, item in self.spec["paths"].items():
            pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "([^/]+)", re.escape(template)) + "$"
            literal = len([s for s in template.split("/") if s and not s.startswith("{")])
            self.routes.append((literal, template, re.compile(pattern), item))
        self.routes.sort(key=lambda r: -r[0])

    def operation(self, method, path):
        for _, template, pattern, item in self.routes:
            if pattern.match(path):
                op = item.get(method.lower())
                if op is None:
                    return template, None, "the document has no %s for %s" % (method, template)
                return template, op, None
        return None, None, "the document has no path %s" % path

    def validate(self, schema, value, where):
        root = dict(openapi_to_jsonschema(schema))
        root["components"] = self.components  # so that #/components/schemas/... resolves in the whole document
        validator = self.jsonschema.Draft4Validator(root)
        violations = []
        for error in validator.iter_errors(value):
            for leaf in leaf_errors(error):
                violations.append("%s: %s: %s" % (where, field_path(leaf), leaf.message))
        return violations

    def check_request(self, method, path, query, body):
        template, op, problem = self.operation(method, path)
        where = "%s %s request" % (method, template or path)
        if problem:
            return [where + ": " + problem]
        violations = []
        params = {p["name"]: p for p in op.get("parameters", []) if p.get("in") == "query"}
        for name, values in query.items():
            if name not in params:
                violations.append("%s: query parameter %s is not in the document" % (where, name))
                continue
            schema = params[name].get("schema", {})
            for value in values:
                if schema.get("type") == "boolean" and value not in ("true", "false"):
                    violations.append("%s: query %s=%s: expected true or false" % (where, name, value))
        request_body = op.get("requestBody")
        if request_body is None:
            if body:
                violations.append("%s: a body was sent, the document gives this operation none" % where)
            return violations
        if not body:
            if request_body.get("required"):
                violations.append("%s: the body is required" % where)
            return violations
        try:
            value = json.loads(body)
        except ValueError as e:
            return violations + ["%s: the body is not JSON: %s" % (where, e)]
        schema = request_body.get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            return violations + ["%s: the document gives no JSON body for this operation" % where]
        return violations + self.validate(schema, value, where + " body")

    def check_response(self, method, path, status, body):
        template, op, problem = self.operation(method, path)
        where = "%s %s answer %d" % (method, template or path, status)
        if problem:
            return [where + ": " + problem]
        answer = op.get("responses", {}).get(str(status)) or op.get("responses", {}).get("default")
        if answer is None:
            return ["%s: the document gives this operation no %d answer" % (where, status)]
        schema = answer.get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            return ["%s: the document gives this answer no body" % where] if body else []
        try:
            value = json.loads(body)
        except ValueError as e:
            return ["%s: the body is not JSON: %s" % (where, e)]
        return self.validate(schema, value, where)


def load_scenario(path):
    with open(path) as f:
        scenario = json.load(f)
    if "base" in scenario:
        base = load_scenario(os.path.join(os.path.dirname(path), scenario["base"]))
        base["routes"].update(scenario.get("routes", {}))
        base["after"].update(scenario.get("after", {}))
        if "mode" in scenario:
            base["mode"] = scenario["mode"]
        return base
    scenario.setdefault("routes", {})
    scenario.setdefault("after", {})
    scenario.setdefault("mode", "leader")
    return scenario


class ScenarioHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.exchange("GET")

    def do_POST(self):
        self.exchange("POST")

    def do_PUT(self):
        self.exchange("PUT")

    def do_DELETE(self):
        self.exchange("DELETE")

    def exchange(self, method):
        server = self.server
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        path = url.path
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        violations = []
        checked = server.document is not None
        if checked:
            violations += server.document.check_request(method, urllib.parse.unquote(path), query, body)
        key = "%s %s" % (method, urllib.parse.unquote(path))
        outside = None
        with server.lock:
            if server.scenario["mode"] == "not-leader":
                status, answer, outside = 502, "", "a master that is not the leader could not forward (DM's proxy)"
            elif key in server.scenario["routes"]:
                route = server.scenario["routes"][key]
                status = route.get("status", 200)
                answer = json.dumps(route["body"], indent=2) if "body" in route else ""
                server.scenario["routes"].update(server.scenario["after"].pop(key, {}))
            else:
                status, answer = 404, ""
                violations.append("%s: the scenario does not answer this request" % key)
        if checked and outside is None and status != 404:
            violations += server.document.check_response(method, urllib.parse.unquote(path), status, answer)
        record = {"request": method + " " + self.path, "body": body, "status": status, "checked": checked,
                  "outside_document": outside, "violations": violations}
        with server.lock:
            with open(server.log_path, "a") as log:
                log.write(json.dumps(record) + "\n")
        data = answer.encode()
        self.send_response(status)
        if data:
            self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--spec", default="")
    parser.add_argument("--cache-dir", default=".")
    parser.add_argument("--tls-cert", default="", help="serve https with this certificate and --tls-key")
    parser.add_argument("--tls-key", default="")
    parser.add_argument("--tls-client-ca", default="", help="require a client certificate signed by this CA")
    args = parser.parse_args()

    document, reason = None, None
    missing = []
    for module in ("jsonschema", "yaml"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        reason = "%s lacks the module(s) %s (Debian: python3-jsonschema python3-yaml)" % (
            sys.executable, ", ".join(missing))
    else:
        spec, reason = find_spec(args)
        if spec:
            try:
                document = Document(spec)
                reason = "on, against %s (%s %s)" % (spec, document.spec.get("info", {}).get("title", "?"),
                                                    document.spec.get("info", {}).get("version", "?"))
            except Exception as e:  # a document that cannot be read is reported, not served half-checked
                document, reason = None, "the document %s cannot be read: %s" % (spec, e)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), ScenarioHandler)
    server.daemon_threads = True
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        if args.tls_client_ca:
            context.verify_mode = ssl.CERT_REQUIRED
            context.load_verify_locations(args.tls_client_ca)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.document = document
    server.scenario = load_scenario(args.scenario)
    server.log_path = args.log
    server.lock = threading.Lock()
    state = reason if document else "OFF, NOTHING IS CHECKED AGAINST DM'S DOCUMENT: " + reason
    print("dm-scenario-server listening on 127.0.0.1:%d; OpenAPI validation %s" % (server.server_address[1], state),
          flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

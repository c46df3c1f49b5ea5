# syntax=docker/dockerfile:1
# Stage 1: front-end libraries from the npm registry (htmx + ws extension).
FROM node:20-bookworm-slim AS frontend
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error \
 && mkdir -p vendor \
 && cp node_modules/htmx.org/dist/htmx.min.js vendor/htmx.min.js \
 && cp node_modules/htmx-ext-ws/dist/ws.js vendor/ws.js

# Stage 2: Python wheels and compiled catalogs.
FROM python:3.11-slim-bookworm AS build
WORKDIR /src
RUN python -m venv /venv
ENV PATH=/venv/bin:$PATH
COPY pyproject.toml ./
COPY app ./app
RUN pip install --no-cache-dir . \
 && pybabel compile -d app/locale -D messages

# Stage 3: the runtime image, as a non-root user.
FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 10001 knobel
WORKDIR /app
ENV PATH=/venv/bin:$PATH PYTHONUNBUFFERED=1 ENVIRONMENT=production VAR_DIR=/app/var
COPY --from=build /venv /venv
COPY --from=build /src/app ./app
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY --from=frontend /src/vendor ./static/vendor
RUN mkdir -p var && chown knobel:knobel var
USER knobel
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz').status==200 else 1)"
CMD ["sh", "-c", "alembic upgrade head && exec uvicorn app.main:create_app --factory --host 0.0.0.0 --port 8000 --proxy-headers --forwarded-allow-ips='*' --ws-max-size 65536 --ws-per-message-deflate false"]

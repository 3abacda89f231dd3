# The kg-first API for the production stack (docker-compose.yml).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    KG_DATA_DIR=/data \
    KG_API__EXPLORER_NODE_MODULES=/app/tools/explorer/node_modules

WORKDIR /app

# node/npm only to install cytoscape.js for the explorer page from its lock file.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm \
    && rm -rf /var/lib/apt/lists/*
COPY tools/explorer/package.json tools/explorer/package-lock.json tools/explorer/
RUN npm ci --prefix tools/explorer --no-audit --no-fund --loglevel=error

# The CPU build of torch first, from its own index, so that `pip install .` finds the pinned
# version satisfied and never pulls the multi-gigabyte CUDA wheels.
RUN pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu

# The whole checkout, filtered by .dockerignore: every package pyproject's `find` lists is in
# the image without a list here to keep in step (a hand list once left out core/ and llm/, and
# `pip install .` still succeeded, installing only what it found).
COPY . .
RUN pip install . && rm -rf /app/build

RUN useradd --create-home --uid 10001 kg && mkdir -p /data && chown kg /data
USER kg

EXPOSE 8000
# Ready once the store answers (/readyz needs no API key); slim images have no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=5 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=4)"]
CMD ["kg", "serve", "--host", "0.0.0.0", "--port", "8000"]

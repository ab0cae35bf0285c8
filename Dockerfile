FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 HANCHAN_ENV=production
# WeasyPrint renders PDFs with Pango.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config config
COPY club club
COPY tournaments tournaments
COPY scoring scoring
RUN pip install .
COPY . .
RUN SECRET_KEY=build-only python manage.py collectstatic --noinput
RUN useradd --system --uid 1000 hanchan && chown -R hanchan /app
USER hanchan
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml ./
RUN pip install --upgrade pip && pip install ".[web]"
COPY . .
RUN DEBUG=0 SECRET_KEY=build-only python manage.py collectstatic --noinput
RUN DEBUG=0 SECRET_KEY=build-only python manage.py compile_catalogs
RUN useradd --system --home /app swiss && chown -R swiss /app
USER swiss
EXPOSE 8000
CMD ["sh", "deploy/start.sh"]

"""Result bundle models (format v2) and the JSON Schema generated from them."""

from pathlib import Path

from .models import SCHEMA_VERSION, Bundle, json_schema

SCHEMA_PATH = Path(__file__).with_name("bundle.schema.json")

__all__ = ["SCHEMA_VERSION", "SCHEMA_PATH", "Bundle", "json_schema"]

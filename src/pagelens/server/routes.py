"""The daemon's route modules, each an APIRouter of its own."""

from __future__ import annotations

from fastapi import APIRouter

ROUTERS: list[APIRouter] = []

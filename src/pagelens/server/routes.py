"""The daemon's route modules, each an APIRouter of its own."""

from __future__ import annotations

from fastapi import APIRouter

from pagelens.server import sessions

ROUTERS: list[APIRouter] = [sessions.router]

"""The daemon's route modules, each an APIRouter of its own."""

from __future__ import annotations

from fastapi import APIRouter

from pagelens.server import chat, interact, models, runs, screens, sessions

ROUTERS: list[APIRouter] = [
    sessions.router,
    interact.router,
    chat.router,
    runs.router,
    screens.router,
    models.router,
]

"""The daemon's route modules, each an APIRouter of its own."""

from __future__ import annotations

from fastapi import APIRouter

from pagelens.server import chat, interact, runs

ROUTERS: list[APIRouter] = [interact.router, chat.router, runs.router]

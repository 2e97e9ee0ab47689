"""The MCP surface: `pagelens mcp` serves the `interact` and `analyze` tools."""

from pagelens.mcp.holder import BrowserOptions
from pagelens.mcp.server import build_server
from pagelens.mcp.transports import serve_http, serve_stdio

__all__ = ["BrowserOptions", "build_server", "serve_http", "serve_stdio"]

"""The HTTP APIs and MCP tools: the engine's answers in the shapes other tools already speak.

One module per API shape (LeanSearch, Loogle, LeanStateSearch, the native API, MCP, votes),
all over one `SearchService` that validates input the same way; `http.make_api` assembles them
behind `guard.RequestGuard` (URL encoding, body size, requests per client), which counts the
client's address that `client.ClientAddress` takes from behind trusted proxies. Below the
application, `connections.GuardedH11Protocol` reads HTTP with deadlines and bounds on
connections, in both servers (app.py, `workers`).
"""

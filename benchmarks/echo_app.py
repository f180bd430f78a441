"""The peer for /v1/score's HTTP cost: a bare FastAPI route that decodes the same JSON body and answers it back,
served by the same server with as many workers (`uvicorn echo_app:app --app-dir benchmarks --workers 2`, on
uvicorn's default loop and on asyncio's, which `fanshot serve` uses: benchmarks/score_under_wrk.py)."""

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

app = FastAPI()


@app.post("/v1/score")
async def echo(request: Request) -> JSONResponse:
    return JSONResponse(await request.json())

"""Animations of a view over N cycles: in a notebook, as one self-contained HTML page (frames
embedded as images, matplotlib's JavaScript player: play, pause, step, a slider; opens offline,
no server), or as a GIF (pillow) or MP4 (ffmpeg) for slides."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib import animation as mpl_animation

from ..simulate import Simulator
from .history import History, as_history
from .network_view import network_view
from .router_view import router_view

VIEWS = {"router": router_view, "network": network_view}


def view_function(view: str):
    """The drawing function of `view`, a key of VIEWS."""
    if view not in VIEWS:
        raise ValueError(f"view {view!r}: allowed {', '.join(map(repr, VIEWS))}")
    return VIEWS[view]

# matplotlib's player draws its buttons with Font Awesome from a CDN, which an offline page
# cannot load (and the failed load is a console error): the buttons get characters instead.
BUTTON_TEXT = {"fa-minus": "&minus;", "fa-fast-backward": "|&#9664;&#9664;",
               "fa-step-backward": "|&#9664;", "fa-play fa-flip-horizontal": "&#9664;",
               "fa-pause": "&#10073;&#10073;", "fa-play": "&#9654;",
               "fa-step-forward": "&#9654;|", "fa-fast-forward": "&#9654;&#9654;|",
               "fa-plus": "+"}


def animation(source: Simulator | History, view: str = "network", cycles: int = 20,
              start: int | None = None, interval: int = 600, **view_args):
    """A matplotlib FuncAnimation of `view` ("router" or "network") over `cycles` cycles from
    `start` (default: the next cycle not yet recorded), stepping the Simulator as far as it
    needs. `view_args` go to the view (`router=5`, `window=8`, `path=trace_df`, ...).
    `interval`: milliseconds per frame when played. In Jupyter,
    `IPython.display.HTML(anim.to_jshtml())` shows it with its player."""
    return _animation(source, view, cycles, start, interval, view_args)[0]


def _animation(source, view, cycles, start, interval, view_args):
    draw = view_function(view)
    if cycles < 1:
        raise ValueError(f"cycles {cycles}: allowed 1 or more")
    history = as_history(source)
    first = history.last + 1 if start is None else start
    ax = draw(history, cycle=first, **view_args)  # the first frame sets the figure's size
    fig = ax.figure

    def frame(t):
        fig.clf()
        draw(history, cycle=t, ax=fig.add_subplot(), **view_args)

    return mpl_animation.FuncAnimation(fig, frame, frames=range(first, first + cycles),
                                       interval=interval, repeat=False), fig


def offline_html(anim, title: str) -> str:
    """`anim` as one HTML page with the frames embedded and no reference outside the file."""
    body = anim.to_jshtml(embed_frames=True, default_mode="once")
    body = re.sub(r'<link rel="stylesheet"\s+href="https?://[^"]*">', "", body)
    for icon, text in BUTTON_TEXT.items():
        body = body.replace(f'<i class="fa {icon}"></i>', text)
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{title}</title>\n</head>\n<body>\n<h3>{title}</h3>\n{body}\n</body>\n"
            "</html>\n")


def export(source: Simulator | History, path: str | Path, view: str = "network",
           cycles: int = 20, start: int | None = None, dpi: int = 80, fps: float = 2,
           **view_args) -> Path:
    """Writes an animation of `view` over `cycles` cycles (see `animation`) to `path`: .html
    (one self-contained page with play, pause, step and a slider), .gif or .mp4 (ffmpeg)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".html", ".gif", ".mp4"):
        raise ValueError(f"path {str(path)!r}: allowed a name ending in .html, .gif or .mp4")
    if suffix == ".mp4" and not mpl_animation.writers.is_available("ffmpeg"):
        raise RuntimeError("path .mp4: needs ffmpeg (apt-get install ffmpeg); .gif and .html "
                           "work without it")
    anim, fig = _animation(source, view, cycles, start, round(1000 / fps), view_args)
    try:
        if suffix == ".html":
            plt.rcParams["animation.embed_limit"] = max(plt.rcParams["animation.embed_limit"],
                                                        200)  # MB: long animations
            fig.set_dpi(dpi)
            what = view_args.get("router")
            title = f"lockstep: {view} view" + (f" of router {what}" if what is not None else "")
            path.write_text(offline_html(anim, title), encoding="utf-8")
        else:  # matplotlib's stubs ask for whole frames per second; its writers take any rate
            writer = mpl_animation.PillowWriter if suffix == ".gif" else mpl_animation.FFMpegWriter
            anim.save(path, writer=writer(fps=fps), dpi=dpi)  # type: ignore[arg-type]
    finally:
        plt.close(fig)
    return path

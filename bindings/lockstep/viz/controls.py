"""Controls for a view in Jupyter: play, pause, step forward and back, and a cycle slider,
driving a Simulator (through its `History`) forward as far as the user goes; going back
shows recorded cycles. The same controls in an exported page are the animation's player
(`export`)."""

from __future__ import annotations

import io
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from ..simulate import Simulator
from .animation import view_function
from .history import History, as_history

AHEAD = 20  # cycles the slider reaches past the furthest one shown; it grows as the user goes


class Player:
    """`view` ("router" or "network", with `view_args` such as `router=5`) of `source` from
    cycle `start` (default: the next cycle not yet recorded). Display it (the last line of a
    cell) to show its widgets; `show(t)` draws cycle t, stepping the Simulator as far as it
    needs, and `figure` is the last figure drawn."""

    def __init__(self, source: Simulator | History, view: str = "network",
                 start: int | None = None, interval: int = 500, dpi: int = 80,
                 **view_args: Any):
        import ipywidgets as widgets  # the `notebook` extra; only the controls need it

        self.draw = view_function(view)
        self.history = as_history(source)
        self.view_args, self.dpi = view_args, dpi
        first = self.history.last + 1 if start is None else start
        self.figure: Figure | None = None
        self.play = widgets.Play(value=first, min=first, max=first + AHEAD, interval=interval,
                                 description="play", show_repeat=False)  # it grows, never ends
        self.slider = widgets.IntSlider(value=first, min=first, max=first + AHEAD,
                                        description="cycle", continuous_update=False)
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        back = widgets.Button(description="back", tooltip="the cycle before")
        step = widgets.Button(description="step", tooltip="the next cycle")
        back.on_click(lambda _: self._move(-1))
        step.on_click(lambda _: self._move(+1))
        # The picture is a PNG in an Image widget: widget state, so a new cycle replaces it in
        # place, and a notebook saved with its widget state (nbclient's) keeps the last one.
        self.image = widgets.Image(format="png")
        self.slider.observe(lambda change: self.show(change["new"]), names="value")
        self.widget = widgets.VBox([widgets.HBox([self.play, back, step, self.slider]),
                                    self.image])
        self.show(first)

    def _move(self, by: int) -> None:
        self.slider.value = max(self.slider.min, self.slider.value + by)

    def show(self, t: int) -> None:
        """Draws cycle t (recorded, or stepped to) in the output area."""
        if t + 1 > self.slider.max:  # forward as far as the user goes
            self.slider.max = self.play.max = t + AHEAD
        figure = self.figure = self.draw(self.history, cycle=t, **self.view_args).figure
        png = io.BytesIO()
        figure.savefig(png, format="png", dpi=self.dpi, bbox_inches="tight")
        plt.close(figure)
        self.image.value = png.getvalue()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict | None:
        """Shown as its widgets (the last line of a cell, or `display`)."""
        return self.widget._repr_mimebundle_(**kwargs)


def player(source: Simulator | History, view: str = "network", start: int | None = None,
           interval: int = 500, dpi: int = 80, **view_args: Any) -> Player:
    """Jupyter controls for `view` (see `Player`): display the returned object in a cell."""
    return Player(source, view, start, interval, dpi, **view_args)

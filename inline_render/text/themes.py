"""Themes: how log kinds, Markdown elements, code, diffs, dialogs, status and composer look.

A ``Theme`` is a frozen value: styles by element name plus the Pygments style that colours
code.  The default (``DEFAULT_THEME``, "default") uses only the 16 ANSI colours, for text and
code alike: they are the terminal's own palette, so it reads well on dark and on light
backgrounds.  ``DARK`` and ``LIGHT`` colour code with truecolor Pygments styles (monokai,
default) for a known background; prompt_toolkit reduces colours to the terminal's depth.  ``NO_COLOR``
and ``FORCE_COLOR`` are read by ``color_depth_from_env`` (colours off; colours on even when
prompt_toolkit would guess otherwise); attributes (bold, italic...) stay without colour.

Glyphs are chosen with East Asian Width "N" (never "A"), so they are one cell wide in every
locale (as in theme.py).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from prompt_toolkit.output.color_depth import ColorDepth

from .style import DEFAULT, Style

__all__ = [
    "DARK",
    "DEFAULT_THEME",
    "LIGHT",
    "THEMES",
    "Theme",
    "color_depth_from_env",
    "hyperlinks_supported",
    "theme_named",
]


def _styles(**styles: Style) -> Mapping[str, Style]:
    return MappingProxyType(dict(styles))


_COMMON = {
    "heading1": Style(bold=True, underline=True),
    "heading2": Style(bold=True),
    "heading": Style(bold=True, italic=True),
    "emph": Style(italic=True),
    "strong": Style(bold=True),
    "strike": Style(strike=True),
    "link": Style(fg="ansiblue", underline=True),
    "link_url": Style(dim=True),
    "quote": Style(dim=True),
    "quote_bar": Style(dim=True),
    "bullet": Style(fg="ansicyan"),
    "rule": Style(dim=True),
    "table_header": Style(bold=True),
    "table_border": Style(dim=True),
    "code_mark": Style(dim=True),
    "diff_add": Style(fg="ansigreen"),
    "diff_del": Style(fg="ansired"),
    "diff_hunk": Style(fg="ansicyan"),
    "diff_file": Style(bold=True),
    "diff_gutter_add": Style(fg="ansigreen", bold=True),
    "diff_gutter_del": Style(fg="ansired", bold=True),
    "detail": Style(dim=True, italic=True),
    "dialog_title": Style(bold=True),
    "dialog_danger": Style(fg="ansired", bold=True),
    "dialog_hint": Style(dim=True, italic=True),
    "dialog_selected": Style(reverse=True),
    "dialog_dim": Style(dim=True),
    "risk_low": Style(fg="ansigreen"),
    "risk_medium": Style(fg="ansiyellow", bold=True),
    "risk_high": Style(fg="ansired", bold=True),
    "status": Style(dim=True),
    "composer_prompt": Style(dim=True),
    "placeholder": Style(dim=True),
}


@dataclass(frozen=True, slots=True)
class Theme:
    """Styles by element name and the Pygments style for code (``code_style``).

    Elements: ``heading1``, ``heading2``, ``heading`` (3-6), ``emph``, ``strong``, ``strike``,
    ``code`` (inline code), ``link``, ``link_url``, ``quote``, ``quote_bar``, ``bullet``,
    ``rule``, ``table_header``, ``table_border``, ``code_mark`` (continuation mark of a long
    code line), ``diff_add``/``diff_del``/``diff_hunk``/``diff_file``, ``detail``, dialogs
    (``dialog_title``, ``dialog_danger``, ``dialog_hint``, ``dialog_selected``, ``dialog_dim``;
    ``risk_low``/``risk_medium``/``risk_high``: an approval's risk), ``status``, ``composer_prompt``,
    ``placeholder``, and ``kind.<kind>`` (text) / ``prefix.<kind>`` (prefix glyph) for log kinds
    (absent: theme.py's built-in kind styles).
    """

    name: str
    code_style: str
    styles: Mapping[str, Style] = field(default_factory=lambda: MappingProxyType({}))

    def __hash__(self) -> int:
        return hash(self.name)  # themes are few, compared by name in caches

    def style(self, element: str) -> Style:
        """The style of ``element`` (the default style when the theme has none)."""
        return self.styles.get(element, DEFAULT)

    def derive(self, name: str, styles: Mapping[str, Style], code_style: str | None = None) -> Theme:
        """A new theme called ``name``: this one's styles with ``styles`` replacing or adding elements."""
        merged = MappingProxyType({**self.styles, **styles})
        return Theme(name, self.code_style if code_style is None else code_style, merged)


DEFAULT_THEME = Theme(
    "default",
    "ansi",  # highlight.AnsiCodeStyle: the 16 ANSI colours, which follow the terminal's dark or light palette
    _styles(**_COMMON, code=Style(fg="ansicyan")),
)
DARK = Theme(
    "dark",
    "monokai",
    _styles(**_COMMON, code=Style(fg="ansiyellow")),
)
LIGHT = Theme(
    "light",
    "default",
    _styles(**_COMMON, code=Style(fg="ansimagenta")),
)
THEMES: Mapping[str, Theme] = MappingProxyType({"default": DEFAULT_THEME, "dark": DARK, "light": LIGHT})


def theme_named(name: str) -> Theme:
    """The built-in theme called ``name`` (``default``, ``dark`` or ``light``); KeyError names the choices."""
    try:
        return THEMES[name]
    except KeyError:
        raise KeyError(f"unknown theme {name!r}: choose one of {', '.join(THEMES)}") from None


@functools.lru_cache(maxsize=8)
def _depth(no_color: str, force: str, toolkit: str) -> ColorDepth | None:
    if no_color:
        return ColorDepth.DEPTH_1_BIT  # https://no-color.org: any non-empty value
    if toolkit in {depth.value for depth in ColorDepth}:
        return ColorDepth(toolkit)
    if force:
        # https://force-color.org: "0"/"false" do not force; 1/2/3 are 16, 256 and 16M colours.
        levels = {"1": ColorDepth.DEPTH_4_BIT, "2": ColorDepth.DEPTH_8_BIT, "3": ColorDepth.DEPTH_24_BIT}
        if force.lower() in {"0", "false"}:
            return None
        return levels.get(force, ColorDepth.DEPTH_8_BIT)
    return None


def color_depth_from_env(environ: Mapping[str, str] | None = None) -> ColorDepth | None:
    """The colour depth the environment asks for, or None (let the terminal decide).

    ``NO_COLOR`` (non-empty) wins; then prompt_toolkit's own ``PROMPT_TOOLKIT_COLOR_DEPTH``;
    then ``FORCE_COLOR`` (1: 16 colours, 2: 256, 3: truecolor, other non-empty values: 256).
    """
    env = os.environ if environ is None else environ
    return _depth(env.get("NO_COLOR", ""), env.get("FORCE_COLOR", ""), env.get("PROMPT_TOOLKIT_COLOR_DEPTH", ""))


# Terminals known to support OSC 8 hyperlinks, by what they put in the environment.
_LINK_PROGRAMS = frozenset({"iTerm.app", "WezTerm", "vscode", "Hyper", "ghostty", "rio", "Tabby"})
_LINK_TERMS = ("xterm-kitty", "wezterm", "xterm-ghostty", "foot", "alacritty")


def hyperlinks_supported(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the terminal is known to support OSC 8 hyperlinks (default: no).

    Known: ``TERM_PROGRAM`` iTerm.app, WezTerm, vscode, Hyper, ghostty, rio, Tabby; ``TERM`` kitty,
    wezterm, ghostty, foot, alacritty; VTE 0.50+ (``VTE_VERSION`` >= 5000); Windows Terminal
    (``WT_SESSION``); ``FORCE_HYPERLINK=1`` forces them on, ``FORCE_HYPERLINK=0`` off.  Inside tmux
    or screen links are off unless forced (they pass OSC 8 only when configured to).
    """
    env = os.environ if environ is None else environ
    forced = env.get("FORCE_HYPERLINK")
    if forced is not None and forced != "":
        return forced not in ("0", "false")
    if env.get("TMUX") or env.get("STY") or env.get("TERM", "").startswith(("screen", "tmux")):
        return False
    vte = env.get("VTE_VERSION", "")
    if env.get("TERM_PROGRAM") in _LINK_PROGRAMS or env.get("WT_SESSION"):
        return True
    if vte.isdigit() and int(vte) >= 5000:
        return True
    return env.get("TERM", "").startswith(_LINK_TERMS)

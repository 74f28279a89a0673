"""Drawing the game: hands, tricks, rows and score sheets as text, SVG and HTML.

One module per concept, each a typed function of library values (no click):

- :mod:`herzla.draw.faces`: how a card is shown, in the French or the German faces;
- :mod:`herzla.draw.course`: the course of a hand, read from its record once for every drawing
  (the tricks with their discards and lead bans, the rows as they grew, the illegal play);
- :mod:`herzla.draw.text`: the drawing for a terminal (``herzla show``);
- :mod:`herzla.draw.svg`: standalone SVG pictures (a card, a hand, a trick, a whole hand trick by
  trick, the rows, a score sheet, histograms);
- :mod:`herzla.draw.html`: one self-contained HTML page (inline SVG and CSS, nothing fetched), and
  the fragments the notebook display shows (``_repr_html_``).
"""

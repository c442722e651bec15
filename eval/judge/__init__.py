"""The LLM-judged comparison of search engines, after the LeanExplore paper's protocol (docs/figures.md, "Judged comparison").

Per query, the top results of three engines are shown blind as Engine A, B and C, in an order
drawn anew for every query and run and recorded; the judge reasons, then ends with one ranking
line (`Engine B, Engine A = Engine C`). Three runs give a mean and a standard error.

- `prompt`: the instructions and the blind presentation of the results;
- `verdict`: the strict parser of the final ranking line, and places with ties;
- `trials`: queries x runs -> trials (engine order, prompt), written as a prompt file (what the
  judge sees) and a trial file (the key), and read back;
- `backend`: an OpenAI-compatible chat endpoint as judge, retrying unparsable verdicts;
- `tables`: place rates and head-to-head rates, mean +- one standard error over runs
  (the layout of the paper's two judged tables), as Markdown and JSON.
"""

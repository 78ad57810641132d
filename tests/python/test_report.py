"""The HTML report in a real browser (issue 14): headless Chromium (Debian's chromium) loads the
self-contained file, writes a screenshot, and a check script in the page reports console errors,
failed or fetched resources and the size of every plot. A control page with a console error and
a missing image shows that the check sees them."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import tenet.report
from conftest import src

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

# Injected first in a copy of the page (before any of its own scripts or images): records errors (console.error, window errors,
# resources that fail to load), resources fetched, and each plot's rendered size, into a <pre>.
CHECK = """
<script>
(function () {
  var errors = [];
  var original = console.error;
  console.error = function () { errors.push(Array.from(arguments).join(" ")); };
  window.addEventListener("error", function (e) {
    errors.push("error event: " + (e.message || (e.target && (e.target.src || e.target.href))));
  }, true);
  window.addEventListener("load", function () {
    var plots = Array.from(document.querySelectorAll("figure.plot")).map(function (f) {
      var svg = f.querySelector("svg");
      var box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
      return {name: f.dataset.plot, width: box.width, height: box.height,
              shapes: svg ? svg.querySelectorAll("path, use, rect").length : 0};
    });
    var resources = performance.getEntriesByType("resource").map(function (r) { return r.name; });
    var pre = document.createElement("pre");
    pre.id = "tenet-check";
    pre.textContent = JSON.stringify({errors: errors, resources: resources, plots: plots});
    document.body.appendChild(pre);
  });
})();
</script>
"""


def chromium(*args):
    out = subprocess.run([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
                          "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
                          "--virtual-time-budget=5000", *args],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out


def check_page(path, tmp_path):
    """The check script's findings, and the page's own console lines."""
    with open(path, encoding="utf-8") as f:
        page = f.read()
    checked = tmp_path / ("checked-" + os.path.basename(path))
    at = re.search(r"<head[^>]*>|<body[^>]*>", page)
    assert at, "no <head> or <body>"
    checked.write_text(page[:at.end()] + CHECK + page[at.end():], encoding="utf-8")
    dom = chromium("--dump-dom", checked.as_uri()).stdout
    found = re.search(r'<pre id="tenet-check">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    import html
    result = json.loads(html.unescape(found.group(1)))
    own = chromium("--dump-dom", "file://" + os.path.abspath(path))
    result["console"] = [l for l in own.stderr.splitlines() if ":CONSOLE" in l]
    return result


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "report.html"
    tenet.report.write(str(path), src("workloads", "models", "gpt2-medium.json"),
                       phase="prefill", prompt=128, quant=["q0f16", "q4f16_1",
                                                            "smoothquant_w8a8"])
    return path


def test_report_is_self_contained(report_file):
    text = report_file.read_text(encoding="utf-8")
    # Nothing to fetch: no src/href to another document, no external stylesheet or script.
    assert not re.search(r'(src|href)="(?!#)[^"]*"', text.replace('xlink:href="#', 'X')), \
        re.findall(r'(?:src|href)="[^"]*"', text)[:5]
    assert "<link" not in text and "@import" not in text
    names = re.findall(r'data-plot="([^"]+)"', text)
    assert names == ["layers-cycles", "layers-energy", "roofline", "ski-slope", "pareto",
                     "request-ops", "tpot-batch"]
    # The request view: TTFT, TPOT, tokens/s, fits, memory and time per op kind.
    view = text[text.index('<h2 id="request">'):]
    for heading in ("TTFT (ms)", "TPOT (ms)", "tokens/s", "fits", "KV cache", "weights",
                    "op kind", "matmul", "norm", "activation"):
        assert f">{heading}<" in view, heading
    # No softmax op: the fused attention kernel (the default) carries its online softmax.
    assert ">softmax<" not in view
    for scheme in ("q0f16", "q4f16_1", "smoothquant_w8a8"):
        assert f"<h3>{scheme}</h3>" in text


def test_report_renders_in_chromium(report_file, tmp_path):
    result = check_page(report_file, tmp_path)
    assert result["errors"] == []
    assert result["console"] == []
    assert result["resources"] == []
    assert [p["name"] for p in result["plots"]] == ["layers-cycles", "layers-energy",
                                                      "roofline", "ski-slope", "pareto",
                                                      "request-ops", "tpot-batch"]
    for plot in result["plots"]:
        assert plot["width"] > 200 and plot["height"] > 150, plot
        assert plot["shapes"] > 10, plot
    # The screenshot is not blank.
    from PIL import Image
    shot = tmp_path / "report.png"
    chromium("--window-size=1280,2000", f"--screenshot={shot}", report_file.as_uri())
    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 2000)
    pixels = list(image.getdata())
    not_white = sum(1 for p in pixels if sum(p) < 720) / len(pixels)
    assert not_white > 0.03, not_white
    assert len(set(pixels)) > 100


def test_the_check_sees_errors(tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text('<html><body><img src="missing.png"><script>console.error("boom")</script>'
                   '<figure class="plot" data-plot="x"></figure></body></html>')
    result = check_page(bad, tmp_path)
    assert any("boom" in e for e in result["errors"])
    assert any("missing.png" in e for e in result["errors"])
    assert result["console"]  # the page's own console.error line
    assert result["plots"][0]["width"] == 0


def test_python_m_tenet_report(tmp_path):
    out = tmp_path / "cli.html"
    done = subprocess.run([sys.executable, "-m", "tenet", "report", "--model",
                           src("workloads", "models", "gpt2.json"), "--phase", "decode",
                           "--context", "256", "--quant", "q0f16,q4f16_1", "--no-search",
                           "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8").count('class="plot"') == 6
    done = subprocess.run([sys.executable, "-m", "tenet", "report", "--model",
                           src("workloads", "models", "gpt2.json"), "--phase", "decode",
                           "--context", "256", "--quant", "q0f16", "--no-search",
                           "--no-request", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # layers-cycles, layers-energy, roofline, ski-slope: no request view.
    text = out.read_text(encoding="utf-8")
    assert text.count('class="plot"') == 4
    assert 'id="request"' not in text
    bad = subprocess.run([sys.executable, "-m", "tenet", "report", "--model", "nope.json",
                          "--out", str(tmp_path / "x.html")], capture_output=True, text=True)
    assert bad.returncode == 2 and "nope.json" in bad.stderr

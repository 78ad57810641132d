"""python3 -m tenet report ...: the HTML report (docs/report.md)."""
import argparse
import sys

from . import InputError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m tenet")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="a self-contained HTML report of a model under schemes")
    r.add_argument("--model", required=True, help="Hugging Face config.json")
    r.add_argument("--phase", default="decode", choices=["prefill", "decode"])
    r.add_argument("--batch", type=int, default=1)
    r.add_argument("--prompt", type=int, default=512, help="prefill: prompt tokens")
    r.add_argument("--context", type=int, default=1024, help="decode: KV-cache tokens")
    r.add_argument("--arch", default=None,
                   help="accelerator preset or file (default: the library's, scalable-32x32)")
    r.add_argument("--dataflow", default=None, help="os (default), ws or is")
    r.add_argument("--quant", default=",".join(["q0f16", "q4f16_1", "smoothquant_w8a8"]),
                   help="comma-separated schemes (presets or files)")
    r.add_argument("--no-search", action="store_true", help="leave out the Pareto-front plot")
    r.add_argument("--no-ski-slope", action="store_true", help="leave out the ski-slope plot")
    r.add_argument("--no-request", action="store_true",
                   help="leave out the request view (TTFT, TPOT, memory, time per op kind)")
    r.add_argument("--request-tokens", type=int, default=16,
                   help="the request view: tokens generated after the --prompt tokens")
    r.add_argument("--out", default="report.html", help="the HTML file to write")
    args = parser.parse_args(argv)
    from . import report
    try:
        report.write(args.out, args.model, phase=args.phase, batch=args.batch,
                     prompt=args.prompt, context=args.context, arch=args.arch,
                     quant=args.quant.split(","), dataflow=args.dataflow,
                     with_search=not args.no_search, with_ski_slope=not args.no_ski_slope,
                     with_request=not args.no_request, request_tokens=args.request_tokens)
    except InputError as e:
        print(f"tenet: error: {e}", file=sys.stderr)
        return 2
    print(f"tenet: wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

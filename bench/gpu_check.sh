#!/usr/bin/env bash
# Issue 18's GPU figures, for a session that is lent a GPU machine (the device tool's `run`): bench/train.py --quick
# on Qwen2.5-VL-3B's architecture with random weights (made on the GPU in bf16: nothing is downloaded), Mobile-R1's
# stage-1 SFT and stage-2 action-level GRPO through the bridge and through TRL directly: samples (completions) per
# second, optimiser steps per second and peak GPU memory per side. Prints the bench's JSON as its last line and
# writes it, with the bench's log, to $OUT (the device tool's folder that comes back) when set.
#
# It installs nothing. It runs on .venv/bin/python where that interpreter works there, else on the machine's python3
# (the device image's, which holds torch, transformers, peft and accelerate); packages that python lacks must come
# with the call as wheels, installed before this script and put on PYTHONPATH (bench/README.md lists them and gives
# the command). About 5 minutes on an H100 by estimate (never run yet): give `run` a timeout_s of 540 or more.
set -euo pipefail
cd "$(dirname "$0")/.."

python=python3
if [ -x .venv/bin/python ] && .venv/bin/python -c "import torch" 2>/dev/null; then
    python=.venv/bin/python
fi
# The repository itself is not installed there: its packages come from the checkout. Nothing is fetched from a hub.
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
out="${OUT:-$(mktemp -d)}"

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
missing=$("$python" - <<'EOF'
import importlib.util

# What bench/train.py's path imports (the project's own dependencies included), by import name.
needed = ["torch", "transformers", "trl", "peft", "accelerate", "datasets", "dill", "multiprocess", "yaml",
          "sqlalchemy", "rapidfuzz", "phonenumbers", "stdnum", "platformdirs", "PIL", "pandas"]
print(" ".join(name for name in needed if importlib.util.find_spec(name) is None))
EOF
)
if [ -n "$missing" ]; then
    echo "gpu_check: $python has no $missing: carry them as wheels (bench/README.md, train.py section)" >&2
    exit 3
fi
"$python" -c "import torch; assert torch.cuda.is_available(), 'torch sees no GPU'; print('torch', torch.__version__)"

# The work folder holds the 3B (7.5 GB) and one full-tuned GRPO output at a time (another 7.5 GB).
if ! "$python" bench/train.py --quick --size 3b --workdir "${TMPDIR:-/tmp}" >"$out/train-3b.out" 2>"$out/train-3b.log"; then
    tail -n 80 "$out/train-3b.log"
    exit 1
fi
grep '^\[bench train\]' "$out/train-3b.log" || true
tail -n 1 "$out/train-3b.out" | tee "$out/train-3b.json"

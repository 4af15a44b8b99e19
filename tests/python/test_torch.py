"""hifsim.torch (label python, run in a venv with Debian's python3-torch): HifsimLinear is
hifsim.gemm bit for bit, quantize_linears swaps every projection of a real LLM, and the torch
Llama built from the capture's weights computes the same model as the numpy forward.

The LLM is stories260K (llama2.c, from $HIFSIM_DATA / ../shared/data: what CI has); SmolLM2 uses
the same code path (docs/python.md gives its numbers)."""
import os
from pathlib import Path

import numpy as np
import pytest

import torch  # Debian's python3-torch (scripts/setup.sh); a missing torch fails here, it does not skip

import hifsim
import hifsim.torch as ht
from hifsim.capture import llama_numpy as ln
from hifsim.capture.capture import load_model
from conftest import values


def stories260k():
    for d in (os.environ.get("HIFSIM_DATA"), Path(__file__).resolve().parents[3] / "shared" / "data", "/work/shared/data"):
        if d and (Path(d) / "stories260K.bin").is_file():
            return load_model(f"llama2c:{Path(d) / 'stories260K.bin'}").model
    pytest.fail("stories260K.bin not found: set HIFSIM_DATA to the folder holding it")


@pytest.mark.parametrize("fmt,options", [("hif4", {}), ("nvfp4", {"residual": "2:4"}), ("hif8", {"acc": "kulisch"}),
                                         ("mxfp4", {"arc": "auto"})])
def test_hifsim_linear_is_the_bit_exact_gemm(fmt, options):
    torch.manual_seed(0)
    lin = torch.nn.Linear(192, 40, bias=True)
    x = torch.from_numpy(values(12, 192, seed=31, finite_only=True)).reshape(3, 4, 192)
    q = ht.HifsimLinear(lin, fmt, **options)
    with torch.no_grad():
        y = q(x)
    want = hifsim.gemm(x.reshape(12, 192).numpy(), lin.weight.detach().numpy(), fmt, **options)
    want = torch.from_numpy(want) + lin.bias.detach()
    assert y.shape == (3, 4, 40) and y.dtype == torch.float32
    assert torch.equal(y.reshape(12, 40), want), f"{fmt} {options}: HifsimLinear differs from hifsim.gemm + bias"


def test_forward_only():
    q = ht.HifsimLinear(torch.nn.Linear(64, 8), "hif4")
    with pytest.raises(RuntimeError, match="forward-only"):
        q(torch.ones(2, 64))                      # the weight requires grad: autograd would need one
    with torch.no_grad():
        assert q(torch.ones(2, 64)).shape == (2, 8)


def test_llama_module_is_the_numpy_model_and_quantize_linears_swaps_every_projection():
    model = stories260k()
    c = model.config
    ids = ln.sample(model, [1], 48, seed=3)
    net = ht.llama_module(model)
    with torch.no_grad():
        logits = net(torch.tensor(ids[:-1])).numpy()
    ref = ln.forward(model, ids[:-1])
    # FP32 GEMMs here (torch BLAS) vs float64-accumulated ones in numpy: equal to a few ulps.
    np.testing.assert_allclose(logits, ref, rtol=0, atol=1e-4 * np.abs(ref).max())
    fp32 = ht.perplexity(net, ids)
    assert abs(fp32 / ln.perplexity(model, ids) - 1) < 1e-4

    names = ht.quantize_linears(net, "hif4", include=lambda n: not n.endswith("classifier"))
    assert len(names) == 7 * c.n_layers and all(n.startswith("layers.") for n in names)
    assert sum(isinstance(m, ht.HifsimLinear) for m in net.modules()) == 7 * c.n_layers
    # Every swapped layer computes hifsim.gemm of what it receives (hook on each one).
    seen = []

    def check(module, inputs, output):
        x = inputs[0].reshape(-1, module.in_features).numpy()
        want = hifsim.gemm(x, module.weight.detach().numpy(), "hif4")
        assert np.array_equal(output.reshape(-1, module.out_features).numpy(), want)
        seen.append(module)

    hooks = [m.register_forward_hook(check) for m in net.modules() if isinstance(m, ht.HifsimLinear)]
    q4 = ht.perplexity(net, ids)
    for h in hooks:
        h.remove()
    assert len(seen) == 7 * c.n_layers
    assert np.isfinite(q4) and q4 > fp32, (q4, fp32)   # 4-bit GEMMs lose accuracy: perplexity rises

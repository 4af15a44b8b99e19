"""Trace capture: run a real LLM (numpy Llama forward on GGUF or llama2.c weights), record every
GEMM's operands and write a hifsim trace (docs/traces.md). Entry points:

    python -m hifsim.capture.capture --model smollm2 --out traces/smollm2-135m
    python -m hifsim.capture.validate_trace traces
    python -m hifsim.capture.shape_traces
"""

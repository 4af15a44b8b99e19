# Type stubs of the hifsim package (PEP 561; py.typed marks the package as typed). The keyword
# options of quantize_dequantize/quantize/encode/gemm/dot are the command-line options with
# underscores (model/options); their values are checked by the model, not by these stubs.
from dataclasses import dataclass
from os import PathLike
from typing import Any, Literal, Mapping, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
__all__: list[str]

class Error(ValueError): ...

_Path = Union[str, bytes, PathLike]
_Array = npt.ArrayLike
_Option = Union[bool, int, float, str, None]
_Overrides = Union[Mapping[str, Any], Sequence[str], None]

def tensor_formats() -> list[str]: ...
def code_formats() -> list[str]: ...
def quantize_dequantize(x: _Array, format: str, **options: _Option) -> npt.NDArray[np.float32]: ...

@dataclass(frozen=True)
class Quantized:
    format: str
    shape: tuple
    codes: npt.NDArray[np.uint16]
    scales: npt.NDArray[Any]
    l2: npt.NDArray[Any]
    l3: npt.NDArray[Any]
    tensor_scale: float
    packed: bytes
    def dequantize(self) -> npt.NDArray[np.float32]: ...

def quantize(x: _Array, format: str, **options: _Option) -> Quantized: ...
def dequantize(packed: bytes) -> npt.NDArray[np.float32]: ...
def encode(x: _Array, format: str, **options: _Option) -> npt.NDArray[Union[np.uint8, np.uint16]]: ...
def decode(codes: _Array, format: str) -> npt.NDArray[np.float32]: ...
@overload
def gemm(a: _Array, b: _Array, format: str = ..., *, residual: str = ..., residual_mode: str = ...,
         arc: Union[int, Literal["auto"], None] = ..., arc_calib: Optional[_Array] = ..., stats: Literal[False] = ...,
         **options: _Option) -> npt.NDArray[np.float32]: ...
@overload
def gemm(a: _Array, b: _Array, format: str = ..., *, residual: str = ..., residual_mode: str = ...,
         arc: Union[int, Literal["auto"], None] = ..., arc_calib: Optional[_Array] = ..., stats: Literal[True],
         **options: _Option) -> Tuple[npt.NDArray[np.float32], dict[str, Any]]: ...
def dot(a: _Array, b: _Array, format: str = ..., **options: _Option) -> npt.NDArray[np.float32]: ...
def run_unit(config: _Path, *, gemm: Optional[Tuple[int, int, int]] = ..., trace: Optional[_Path] = ...,
             a: Union[_Array, _Path, None] = ..., b: Union[_Array, _Path, None] = ..., set: _Overrides = ...,
             ops: Union[str, Sequence[str], None] = ..., one_layer: bool = ..., values: bool = ...,
             simulate_all: bool = ..., seed: int = ..., threads: int = ..., cost: bool = ...,
             cost_tables: Optional[_Path] = ..., cost_sample: int = ...) -> dict[str, Any]: ...
def cost(config: Optional[_Path] = ..., *, gemm: Optional[Tuple[int, int, int]] = ..., trace: Optional[_Path] = ...,
         a: Union[_Array, _Path, None] = ..., b: Union[_Array, _Path, None] = ..., set: _Overrides = ...,
         ops: Union[str, Sequence[str], None] = ..., one_layer: bool = ..., sample: int = ..., seed: int = ...,
         tables: Optional[_Path] = ..., node: str = ..., compare_units: bool = ...,
         formats: Sequence[str] = ...) -> dict[str, Any]: ...

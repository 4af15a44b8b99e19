"""One error type for the whole sky130 flow: the message names the file and the reason.

Every stage raises FlowError instead of printing and continuing, so a missing cell, an
unparsable Liberty or a failed ngspice run stops the flow before any table is written
(the writers only rename their temporary file into place after a complete run).
"""


class FlowError(Exception):
    def __init__(self, path, reason):
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason

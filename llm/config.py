"""``KG_LLM__*``: where the chat model is and how long to wait for it."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LlmSettings(BaseModel):
    base_url: str = ""
    model: str = ""
    api_key: str = ""
    temperature: float = 0.0
    # A fixed per-request timeout in seconds. Unset (the default), each request gets one from
    # the server's speed: its prompt at ``read_tokens_per_s`` plus its output cap at
    # ``write_tokens_per_s``, doubled, plus ``timeout_floor_s``. A 3,000-token synthesis
    # prompt takes about 48 s to read on two CPU cores, so a hosted API's 60 s cannot fit.
    timeout_s: float | None = Field(default=None, gt=0)
    timeout_floor_s: float = Field(default=30.0, gt=0)
    # Defaults: Qwen2.5-Coder-1.5B Q4_K_M on two shared CPU cores (the slowest set-up we run).
    read_tokens_per_s: float = Field(default=40.0, gt=0)
    write_tokens_per_s: float = Field(default=6.0, gt=0)
    # The SDK's own retries (connection errors, 408/409/429/5xx, timeouts), each one audited.
    # One: a timed-out request resent to a one-slot server waits behind nothing but itself.
    max_retries: int = Field(default=1, ge=0, le=10)

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)

    def timeout_for(self, prompt_chars: int, max_tokens: int) -> float:
        if self.timeout_s is not None:
            return self.timeout_s
        # About 3.5 characters per token for English prose and JSON.
        read = prompt_chars / 3.5 / self.read_tokens_per_s
        write = max_tokens / self.write_tokens_per_s
        return self.timeout_floor_s + 2.0 * (read + write)

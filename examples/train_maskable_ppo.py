"""Train a Perudo agent with sb3-contrib's MaskablePPO on the batch engine (needs the extra
perudo[sb3]): one learning seat in each of 64 two-player Italian games against the odds bot,
illegal actions masked out, and the win rates against the random and the odds bots printed
as it goes.

    python examples/train_maskable_ppo.py                  # a short run (CI runs this)
    python examples/train_maskable_ppo.py --steps 1000000  # a learning curve
"""

from __future__ import annotations

import argparse
import time

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecMonitor

from perudo.interop.sb3 import PerudoVecEnv, win_rate

EDITION, PLAYERS = "italian", 2


class WinRates(BaseCallback):  # type: ignore[misc]
    """Print the win rates against the random and the odds bots every ``every`` steps."""

    def __init__(self, every: int, games: int) -> None:
        super().__init__()
        self.every, self.games, self.next = every, games, every
        self.start = time.perf_counter()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.next += self.every
            self.report()
        return True

    def report(self) -> None:
        rates = {
            bots: win_rate(self.model, EDITION, PLAYERS, bots, games=self.games, seed=1)
            for bots in ("random", "odds")
        }
        rate = self.num_timesteps / (time.perf_counter() - self.start)
        print(f"{self.num_timesteps:>9} steps ({rate:,.0f} steps/s): wins against random "
              f"{rates['random']:.2f}, against odds {rates['odds']:.2f}", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=4096, help="agent steps to train")
    parser.add_argument("--every", type=int, default=2048, help="steps between reports")
    parser.add_argument("--games", type=int, default=200, help="games a win rate counts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)  # small networks: threads cost more than they give
    envs = VecMonitor(PerudoVecEnv(EDITION, PLAYERS, num_envs=64, opponents="odds", seed=args.seed))
    model = MaskablePPO(
        "MlpPolicy", envs, n_steps=64, batch_size=1024, learning_rate=3e-4, gamma=1.0,
        seed=args.seed, verbose=0,
    )  # fmt: skip
    callback = WinRates(args.every, args.games)
    callback.init_callback(model)
    callback.report()  # before any training: the untrained policy
    model.learn(total_timesteps=args.steps, callback=callback)


if __name__ == "__main__":
    main()

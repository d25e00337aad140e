/**
 * Fires `notify` once after `ms` without input (SPEC §4: Notification `idle_prompt` after 60 s).
 * `arm` starts the wait again; `touch` restarts it only while it is still waiting; 0 turns it off.
 */
export class IdleTimer {
  private timer?: NodeJS.Timeout;
  constructor(
    private readonly ms: number,
    private readonly notify: () => void,
  ) {}

  arm(): void {
    this.disarm();
    if (this.ms <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.notify();
    }, this.ms);
    this.timer.unref?.();
  }

  touch(): void {
    if (this.timer) this.arm();
  }

  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

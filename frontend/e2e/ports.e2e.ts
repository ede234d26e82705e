import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canListen, freePort, testPorts } from './stack';

describe("the tests' ports", () => {
  it('are free and below the ephemeral range, where no outgoing connection takes them', async () => {
    const [ephemeralFrom] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    expect(testPorts.to).toBeLessThanOrEqual(ephemeralFrom);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(testPorts.from);
      expect(port).toBeLessThan(ephemeralFrom);
      // Free: a server can listen on it at once.
      expect(await canListen(port)).toBe(true);
    }
  });
});

// A loopback port free now, for a server that must come back on the port it had (the supervisor's
// collector) or a proxy in front of one.
import net from 'node:net';

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// A real DNS server for tests (UDP on 127.0.0.1, the `dns2` package), answering from a zone the
// test edits as it goes: the server under test asks it through DNS_SERVERS like any resolver.
import type { AddressInfo } from "node:net";
import dns2 from "dns2";

const { Packet } = dns2;

export type ZoneEntry = {
  /** One entry per record; a record given as several strings is sent split, as long TXT values are. */
  TXT?: (string | string[])[];
  CNAME?: string;
  A?: string[];
  AAAA?: string[];
  /** Answer SERVFAIL for this name (a broken or unreachable DNS host). */
  fail?: boolean;
};

export type TestDnsServer = {
  /** `127.0.0.1:port`, for DNS_SERVERS. */
  address: string;
  zone: Map<string, ZoneEntry>;
  /** Every name asked about so far, in order (lower case): what the server under test looked up. */
  asked: string[];
  set(name: string, entry: ZoneEntry): void;
  remove(name: string): void;
  close(): Promise<void>;
};

const key = (name: string) => name.toLowerCase().replace(/\.$/, "");

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, ZoneEntry>();
  const asked: string[] = [];
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (!question) return void send(response);
    const name = key(question.name);
    asked.push(name);
    let entry = zone.get(name);
    if (entry?.fail) {
      response.header.rcode = 2; // SERVFAIL
      return void send(response);
    }
    if (!entry) {
      response.header.rcode = 3; // NXDOMAIN
      return void send(response);
    }
    const base = { class: Packet.CLASS.IN, ttl: 60 };
    // dns2 encodes plain records; its type declarations want class instances.
    const answer = (r: Record<string, unknown>) => response.answers.push(r as never);
    let owner = name;
    // Like a recursive resolver: a CNAME is answered, then followed within the zone.
    for (let hops = 0; entry?.CNAME && question.type !== Packet.TYPE.CNAME && hops < 8; hops++) {
      answer({ ...base, name: owner, type: Packet.TYPE.CNAME, domain: entry.CNAME });
      owner = key(entry.CNAME);
      entry = zone.get(owner);
    }
    if (entry) {
      if (question.type === Packet.TYPE.CNAME && entry.CNAME) {
        answer({ ...base, name: owner, type: Packet.TYPE.CNAME, domain: entry.CNAME });
      }
      if (question.type === Packet.TYPE.TXT) {
        for (const data of entry.TXT ?? []) answer({ ...base, name: owner, type: Packet.TYPE.TXT, data });
      }
      if (question.type === Packet.TYPE.A) {
        for (const address of entry.A ?? []) answer({ ...base, name: owner, type: Packet.TYPE.A, address });
      }
      if (question.type === Packet.TYPE.AAAA) {
        for (const address of entry.AAAA ?? []) {
          answer({ ...base, name: owner, type: Packet.TYPE.AAAA, address });
        }
      }
    }
    send(response);
  });
  await server.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    zone,
    asked,
    set: (name, entry) => void zone.set(key(name), entry),
    remove: (name) => void zone.delete(key(name)),
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

import { isIPv4, isIPv6 } from "node:net";

/**
 * The network a client address belongs to, as the visitor hash takes it: IPv4 /24 ("203.0.113"),
 * IPv6 /48 (its first three groups, "2001:db8:1"). A phone's IPv6 address changes its last
 * groups often and a home's IPv4 address its last byte now and then; the network is steadier,
 * and is never a single person's address. Undefined for anything that is not an address.
 */
export function networkOf(ip: string): string | undefined {
  let address = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1]!;
  if (isIPv4(address)) return address.slice(0, address.lastIndexOf("."));
  if (!isIPv6(address)) return undefined;
  const zone = address.indexOf("%");
  if (zone >= 0) address = address.slice(0, zone);
  const [head = "", tail] = address.toLowerCase().split("::");
  const headGroups = head ? head.split(":") : [];
  // The first three groups: written out, or zeros standing in for "::".
  const groups = tail === undefined || headGroups.length >= 3 ? headGroups : [...headGroups, "0", "0", "0"];
  return groups
    .slice(0, 3)
    .map((group) => (group.includes(".") ? "0" : String(parseInt(group, 16).toString(16))))
    .join(":");
}

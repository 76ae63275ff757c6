import { describe, expect, it } from "vitest";
import { SegmentedMessage } from "sms-segments-calculator";
import { classifyInbound, helpReply, stopConfirmation } from "./sms-keywords";

describe("classifyInbound", () => {
  it.each([
    "STOP", "stop", "Stop.", " stop! ", "STOPALL", "STOP ALL", "UNSUBSCRIBE", "cancel", "END", "quit", "REVOKE",
    "OPTOUT", "opt out", "opt-out", "Opt-Out", "remove", "Remove me", "Stop please", "pls stop texting",
    "no", "N", "S", "nope", "exit", "cease and desist", "I do not wish to be contacted", "wrong number",
    "take me off your list", "Don't text me", "not interested", "unsub", "ARRET",
  ])("%j is an opt-out", (body) => {
    expect(classifyInbound(body)).toBe("stop");
  });

  it.each(["HELP", "help", "Info", "info?"])("%j asks for help", (body) => {
    expect(classifyInbound(body)).toBe("help");
  });

  it.each(["START", "start", "UNSTOP", "Yes", "YES!"])("%j opts back in", (body) => {
    expect(classifyInbound(body)).toBe("start");
  });

  it.each(["Thanks!", "What is the gold price today?", "", "Stopwatch", "backend"])("%j is for a person to read", (body) => {
    expect(classifyInbound(body)).toBe("other");
  });
});

describe("reply texts", () => {
  const site = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };
  it("fit in one GSM-7 segment and say what CTIA asks", () => {
    for (const text of [helpReply(site), stopConfirmation(site.name)]) {
      const segments = new SegmentedMessage(text, "auto");
      expect(segments.encodingName).toBe("GSM-7");
      expect(segments.segmentsCount).toBe(1);
      expect(text).toContain("Patriot Investor");
    }
    expect(helpReply(site)).toMatch(/HELP|Help/);
    expect(helpReply(site)).toContain("STOP");
    expect(helpReply(site)).toContain("Msg&data rates may apply");
  });
});

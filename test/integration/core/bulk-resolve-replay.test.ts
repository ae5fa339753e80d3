import { describe, expect, it } from "vitest";
import { useLocalNetwork } from "../../support/local-network.js";
import {
  type CoreHarness,
  eventually,
  useSignedInCore,
} from "../../support/core-harness.js";
import { actionHandlers } from "../../../src/main/core/queue/organizer-actions.js";

const net = useLocalNetwork();
let app: CoreHarness;
let owner: string;

useSignedInCore(net, {}, (signedIn) => ({ app, owner } = signedIn));

/** Made-up accounts to report: each is its own subject in the queue. */
const N = 8;
const reportedDid = (i: number) =>
  `did:plc:bulkreplay${Date.now().toString(36)}${i}`;

describe("a bulk resolve replayed after the host died mid-way (real PDS sign-in, real host)", () => {
  it("resolves each subject exactly once, the ones the host took before it died included", async () => {
    const group = await app.call("groups.create", {
      accountDid: owner,
      handle: `bulkres${Date.now().toString(36)}.groups.test`,
      joinPolicy: "open",
    });
    const groupDid = group.did;
    const dids = Array.from({ length: N }, (_, i) => reportedDid(i));
    // The owner is a member, and reports N accounts: N subjects in the queue.
    await app.call("groups.actMany", {
      accountDid: owner,
      groupDid,
      actions: dids.map((did) => ({
        kind: "report.create" as const,
        subject: { did },
        reasonType: "spam",
      })),
    });
    await eventually(
      async () => (await app.call("outbox.list", {})).length === 0,
    );
    await app.call("groups.refresh", { accountDid: owner, groupDid });
    const queue = await app.call("groups.subjects", {
      accountDid: owner,
      groupDid,
      limit: 100,
    });
    expect(queue.items.map((s) => s.key).sort()).toEqual([...dids].sort());

    // One bulk resolve with one note, queued as the window queues it (held, so nothing is sent yet).
    const { outboxIds } = await app.call("groups.actMany", {
      accountDid: owner,
      groupDid,
      actions: dids.map((did) => ({
        kind: "subject.event" as const,
        key: did,
        subject: { did },
        event: "resolve" as const,
        note: "Spam wave",
      })),
      hold: 60_000,
    });
    expect(outboxIds).toHaveLength(N);

    // The host takes the first half, sent exactly as the outbox sends them (with each row's
    // key)… and dies before any answer is heard: those rows are left 'sending', one attempt made.
    const rt = await app.core.groups.runtime(owner);
    const rows = (await rt.outbox.list()).filter((r) =>
      outboxIds.includes(r.id),
    );
    const handlers = actionHandlers(rt);
    const taken = rows.slice(0, N / 2);
    for (const row of taken)
      await handlers["subject.event"]!.send(
        groupDid,
        row.payload,
        row.idempotencyKey,
      );
    await rt.cache
      .updateTable("outbox")
      .set({ state: "sending", attempts: 1 })
      .where(
        "id",
        "in",
        taken.map((r) => r.id),
      )
      .execute();
    // The rest were never sent; their hold ends now (the host is back).
    await rt.cache
      .updateTable("outbox")
      .set({ nextAttemptAt: null })
      .where(
        "id",
        "in",
        rows.slice(N / 2).map((r) => r.id),
      )
      .execute();

    // A new process over the same data sends every row: the taken ones a second time.
    app = await app.restartCore();
    const pending = await app.call("outbox.list", {});
    expect(pending.filter((o) => o.state === "queued")).toHaveLength(N);
    await app.call("sync.now", {});
    await eventually(
      async () => (await app.call("outbox.list", {})).length === 0,
    );

    // Every row reached its end as done: none refused, none failed.
    await app.call("groups.refresh", { accountDid: owner, groupDid });
    const after = await app.call("groups.subjects", {
      accountDid: owner,
      groupDid,
      limit: 100,
    });
    expect(after.items).toEqual([]);
    for (const did of dids) {
      const detail = await app.call("groups.subject", {
        accountDid: owner,
        groupDid,
        key: did,
      });
      expect(detail.status).toBe("resolved");
      // Nothing doubled: one resolve in each subject's history, with the one note.
      expect(
        detail.history.filter((h) => h.event === "resolve").map((h) => h.note),
      ).toEqual(["Spam wave"]);
    }

    // A stray third send of a row already done (the same key) still adds nothing.
    const rt2 = await app.core.groups.runtime(owner);
    await actionHandlers(rt2)["subject.event"]!.send(
      groupDid,
      taken[0]!.payload,
      taken[0]!.idempotencyKey,
    );
    const again = await app.call("groups.subject", {
      accountDid: owner,
      groupDid,
      key: dids[0]!,
    });
    expect(again.history.filter((h) => h.event === "resolve")).toHaveLength(1);

    // A new resolve of a reopened subject (another key) is a new event: the key dedupes retries, not decisions.
    await app.call("groups.act", {
      accountDid: owner,
      groupDid,
      action: {
        kind: "subject.update",
        key: dids[1]!,
        subject: { did: dids[1]! },
        status: "open",
      },
    });
    await app.call("groups.act", {
      accountDid: owner,
      groupDid,
      action: {
        kind: "subject.event",
        key: dids[1]!,
        subject: { did: dids[1]! },
        event: "resolve",
      },
    });
    await eventually(
      async () => (await app.call("outbox.list", {})).length === 0,
    );
    const reResolved = await app.call("groups.subject", {
      accountDid: owner,
      groupDid,
      key: dids[1]!,
    });
    expect(
      reResolved.history.filter((h) => h.event === "resolve"),
    ).toHaveLength(2);
  });
});

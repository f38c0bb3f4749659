/**
 * Which project an inbound belongs to, for the replies worker (worker.ts): a conversation's project
 * as the passes learned it (events do not carry the project), else the only project of the files
 * sending from the number the event was sent to (counting the projects without reply rules: a
 * number one of them shares does not place an event in the one with rules). Pure.
 */
import type { ReplyProject } from "./port.js";
import type { NumberSender } from "./projects.js";

/** Where an event's inbound goes: its project, or none with the project id the passes learned (if any). */
export interface EventProject {
  readonly project: ReplyProject | undefined;
  /** The conversation's project as a pass learned it; undefined when no pass has seen the conversation. */
  readonly learned: string | undefined;
}

/** The files' projects by id and by sending number, and the conversations' projects learned so far. */
export class ConversationProjects {
  private readonly byId: Map<string, ReplyProject>;
  /** Number -> the ids of the projects of the files sending from it (with reply rules or not). */
  private readonly byNumber = new Map<string, Set<string>>();
  /** Conversation id -> project id, learned from passes (events do not carry the project). */
  private readonly conversationProject = new Map<string, string>();

  /** `senders`: every project of the files with its numbers (default: `projects` alone). */
  constructor(projects: readonly ReplyProject[], senders: readonly NumberSender[] = projects) {
    this.byId = new Map(projects.map((p) => [p.id, p]));
    for (const p of [...projects, ...senders])
      for (const n of p.numbers) this.byNumber.set(n, (this.byNumber.get(n) ?? new Set()).add(p.id));
  }

  /** The project of the files with this id; undefined when the files have no rules for it. */
  project(id: string): ReplyProject | undefined {
    return this.byId.get(id);
  }

  /** Remembers a conversation's project, as a pass read it. */
  learn(conversationId: string, projectId: string): void {
    this.conversationProject.set(conversationId, projectId);
  }

  /**
   * An event's project: the learned one (undefined when the files have no rules for it), else the
   * only project of the files sending from `to` when it has rules; undefined when neither tells.
   */
  ofEvent(conversationId: string, to: string | null): EventProject {
    const learned = this.conversationProject.get(conversationId);
    let project = learned === undefined ? undefined : this.byId.get(learned);
    if (project === undefined && learned === undefined && to !== null) {
      const senders = [...(this.byNumber.get(to) ?? [])];
      if (senders.length === 1 && senders[0] !== undefined) project = this.byId.get(senders[0]);
    }
    return { project, learned };
  }
}

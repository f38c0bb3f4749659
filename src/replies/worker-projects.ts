/**
 * Which project an inbound belongs to, for the replies worker (worker.ts): a conversation's project
 * as the passes learned it (events do not carry the project), else the only project of the files
 * sending from the number the event was sent to. Pure.
 */
import type { ReplyProject } from "./port.js";

/** Where an event's inbound goes: its project, or none with the project id the passes learned (if any). */
export interface EventProject {
  readonly project: ReplyProject | undefined;
  /** The conversation's project as a pass learned it; undefined when no pass has seen the conversation. */
  readonly learned: string | undefined;
}

/** The files' projects by id and by sending number, and the conversations' projects learned so far. */
export class ConversationProjects {
  private readonly byId: Map<string, ReplyProject>;
  private readonly byNumber = new Map<string, ReplyProject[]>();
  /** Conversation id -> project id, learned from passes (events do not carry the project). */
  private readonly conversationProject = new Map<string, string>();

  constructor(projects: readonly ReplyProject[]) {
    this.byId = new Map(projects.map((p) => [p.id, p]));
    for (const p of projects)
      for (const n of p.numbers) this.byNumber.set(n, [...(this.byNumber.get(n) ?? []), p]);
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
   * only project sending from `to`; undefined when neither tells.
   */
  ofEvent(conversationId: string, to: string | null): EventProject {
    const learned = this.conversationProject.get(conversationId);
    let project = learned === undefined ? undefined : this.byId.get(learned);
    if (project === undefined && learned === undefined && to !== null) {
      const candidates = this.byNumber.get(to) ?? [];
      if (candidates.length === 1) project = candidates[0];
    }
    return { project, learned };
  }
}

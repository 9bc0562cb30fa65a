// Skills: SKILL.md discovery, the skill tool and the per-agent catalogue (issue 14 point 5).
export * from "./skills";

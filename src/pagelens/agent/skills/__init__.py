"""The agent's skills: JavaScript libraries and notes for the sites their patterns match,
kept in the store, and the `skill` tool that lists, reads and edits them. See docs/skills.md."""

from pagelens.agent.skills.errors import InvalidSkillError
from pagelens.agent.skills.model import Skill, SkillParams
from pagelens.agent.skills.patterns import matches
from pagelens.agent.skills.service import Skills, default_skills, skill

__all__ = ["InvalidSkillError", "Skill", "SkillParams", "Skills", "default_skills", "matches", "skill"]

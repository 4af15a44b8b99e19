"""The sky130 flow (docs/cost.md section 11): scripts/pdk/regenerate.sh runs its steps in order."""

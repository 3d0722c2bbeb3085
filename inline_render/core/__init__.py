"""The pure core: state, the log, and the tick's four stages, each in the module named after it.

``reduce`` (stage 1, ``reduce_inputs``; a resize in ``reduce_resize``), ``layout`` (stage 2, ``compute_layout``),
``frame`` (stage 3, ``draw_frame``), ``effects`` (stage 4, ``apply_terminal_effects``: the planners, the settling
of what was written) and ``backend`` (the one place that turns operations into bytes); ``tick`` runs them in order.
"""

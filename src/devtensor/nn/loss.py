"""Loss modules: MSELoss, L1Loss, HuberLoss, SmoothL1Loss, KLDivLoss, BCELoss,
CrossEntropyLoss, NLLLoss and BCEWithLogitsLoss."""
from . import functional as F
from .module import Module


class MSELoss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        F._check_reduction(reduction)
        self.reduction = reduction

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        F._check_reduction(reduction)
        self.reduction = reduction

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(Module):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__()
        F._check_reduction(reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.reduction = reduction

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class BCEWithLogitsLoss(Module):
    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__()
        F._check_reduction(reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)
        self.reduction = reduction

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


class CrossEntropyLoss(Module):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__()
        F._check_reduction(reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class HuberLoss(Module):
    def __init__(self, reduction="mean", delta=1.0):
        super().__init__()
        F._check_reduction(reduction)
        self.reduction, self.delta = reduction, delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class SmoothL1Loss(Module):
    def __init__(self, reduction="mean", beta=1.0):
        super().__init__()
        F._check_reduction(reduction)
        self.reduction, self.beta = reduction, beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class KLDivLoss(Module):
    def __init__(self, reduction="mean", log_target=False):
        super().__init__()
        if reduction not in F._REDUCTIONS + ("batchmean",):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class BCELoss(Module):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__()
        F._check_reduction(reduction)
        self.register_buffer("weight", weight)
        self.reduction = reduction

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, self.weight, reduction=self.reduction)


__all__ = ["HuberLoss", "SmoothL1Loss", "KLDivLoss", "BCELoss", "MSELoss", "L1Loss", "CrossEntropyLoss", "NLLLoss", "BCEWithLogitsLoss"]
